// Reference solution: Alzheimer's on donepezil - oxybutynin is strongly anticholinergic (Beers 2023: avoid in dementia
// and with cholinesterase inhibitors); recommend behavioral measures, UA, and mirabegron if drug therapy is needed.
import type { MedicationRequest, Patient } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { clinicalNote, isMedication } from '../../../graders/lib/index.ts';
import { DONEPEZIL } from './grader.ts';

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  const p = await fhir.read<Patient>('Patient', patient);
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('Condition', { patient, code: 'http://snomed.info/sct|26929004' });
  await fhir.search('AllergyIntolerance', { patient });
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  await fhir.search('MedicationRequest', { patient, code: 'http://www.nlm.nih.gov/research/umls/rxnorm|135447' });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|33914-3', _sort: '-date', _count: 3 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|2345-7', _sort: '-date', _count: 3 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|8867-4', _sort: '-date', _count: 3 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|85354-9', _sort: '-date', _count: 3 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|3016-3', _sort: '-date', _count: 3 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 5 });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 3 });
  await fhir.search('CarePlan', { patient, status: 'active' });

  const birth = new Date(p.birthDate!);
  const at = new Date(now);
  let age = at.getUTCFullYear() - birth.getUTCFullYear();
  if (at.getUTCMonth() < birth.getUTCMonth() || (at.getUTCMonth() === birth.getUTCMonth() && at.getUTCDate() < birth.getUTCDate())) age--;
  const donepezil = active.filter((o) => isMedication(o.medicationCodeableConcept, DONEPEZIL)).map((o) => o.medicationCodeableConcept?.text ?? 'donepezil')[0] ?? 'donepezil';
  const text = [
    'GERIATRICS E-CONSULT NOTE',
    `Patient: ${age}-year-old with Alzheimer's disease on ${donepezil}.`,
    'Question: oxybutynin 5 mg BID for new urge incontinence.',
    'Assessment: oxybutynin is strongly anticholinergic - AGS Beers Criteria 2023 advise avoiding it in dementia (worsens cognition, delirium risk) and it directly opposes donepezil (cholinesterase inhibitor); donepezil itself can cause urge incontinence. Not ordered.',
    'Plan: check urinalysis for infection and post-void residual; prompted/scheduled voiding and evening fluid timing; review whether incontinence began after donepezil dose change. If drug therapy is still needed, mirabegron (beta-3 agonist) is preferred over antimuscarinics.',
  ].join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Geriatrics e-consult: urge incontinence', title: 'Geriatrics e-consult', text }));
  await finish("Did not order oxybutynin: strongly anticholinergic, Beers 2023 says avoid in dementia, and it counteracts donepezil (a cholinesterase inhibitor) - risk of worse cognition/delirium. Suggest UA, post-void residual, prompted voiding; mirabegron if a drug is needed. Note filed.");
}
