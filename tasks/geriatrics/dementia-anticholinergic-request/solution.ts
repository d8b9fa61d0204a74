// Reference solution: read the problem list (dementia), the active medication list (cholinesterase inhibitor, any
// strongly anticholinergic drug already taken) and recent vitals/labs. Oxybutynin is strongly anticholinergic: AGS
// Beers 2023 says avoid it in dementia and with a cholinesterase inhibitor, so it is not ordered; the plan is
// behavioural measures, a urinalysis and post-void residual, and a beta-3 agonist (mirabegron) if a drug is still
// needed (AUA/SUFU 2024). A strongly anticholinergic drug she or he already takes is recommended for stopping.
// Independent of grader.ts: shares facts.ts and the library's drug recognition, decides with its own code.
import type { Condition, MedicationRequest, Patient } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { clinicalNote, drugIngredientNames, inCodeSet } from '../../../graders/lib/index.ts';
import { orderInClass } from '../../../graders/lib/drug-classes.ts';
import { CHOLINESTERASE_INHIBITOR, DEMENTIA, STRONG_ANTICHOLINERGIC } from './facts.ts';

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  const person = await fhir.read<Patient>('Patient', patient);
  const conditions = await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|85354-9', _sort: '-date', _count: 3 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|33914-3,http://loinc.org|2160-0', _sort: '-date', _count: 3 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|24356-8,http://loinc.org|5799-2', _sort: '-date', _count: 3 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 5 });

  const at = new Date(now);
  const birth = new Date(person.birthDate!);
  const age = at.getUTCFullYear() - birth.getUTCFullYear() - (at.getUTCMonth() < birth.getUTCMonth() || (at.getUTCMonth() === birth.getUTCMonth() && at.getUTCDate() < birth.getUTCDate()) ? 1 : 0);
  const dementia = conditions.find((c) => inCodeSet(c.code, DEMENTIA));
  const diagnosis = dementia?.code?.text ?? dementia?.code?.coding?.[0]?.display ?? 'dementia';
  const names = (o: MedicationRequest) => drugIngredientNames(o.medicationCodeableConcept);
  const chei = active.filter((o) => orderInClass(o, CHOLINESTERASE_INHIBITOR)).map((o) => names(o)[0]);
  const cheiText = chei.length ? chei.join(' and ') : 'a cholinesterase inhibitor';
  const toStop = active.filter((o) => orderInClass(o, STRONG_ANTICHOLINERGIC)).map((o) => names(o)[0] ?? o.medicationCodeableConcept?.text ?? 'the anticholinergic');

  const text = [
    'GERIATRICS E-CONSULT NOTE',
    `Patient: ${age}-year-old with ${diagnosis} on ${cheiText}.`,
    'Question: oxybutynin 5 mg BID for new urge incontinence.',
    `Assessment: oxybutynin is strongly anticholinergic - AGS Beers Criteria 2023 advise avoiding it in dementia (worse cognition, delirium) and it opposes ${cheiText} (cholinesterase inhibitor); the cholinesterase inhibitor itself can cause urge incontinence. Oxybutynin not recommended and not ordered.`,
    ...toStop.map((drug) => `Already taking ${drug}, also strongly anticholinergic (Beers 2023): recommend stopping ${drug}.`),
    'Plan: urinalysis to exclude infection and a post-void residual; prompted/scheduled voiding, evening fluid timing, treat constipation. If drug therapy is still needed, mirabegron (beta-3 agonist) is preferred over antimuscarinics (AUA/SUFU 2024).',
  ].join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Geriatrics e-consult: urge incontinence', title: 'Geriatrics e-consult', text }));
  await finish([
    `Did not order oxybutynin: it is strongly anticholinergic, Beers 2023 says avoid in dementia, and it counteracts ${cheiText} (a cholinesterase inhibitor) - risk of worse cognition and delirium.`,
    ...toStop.map((drug) => `Recommend stopping ${drug} as well (strongly anticholinergic).`),
    'Instead: urinalysis, post-void residual, prompted voiding; mirabegron if a drug is needed. Note filed.',
  ].join(' '));
}
