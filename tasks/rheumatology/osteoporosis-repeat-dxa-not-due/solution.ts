// Reference solution: problem list, alendronate order and adherence history, the latest DXA (report and procedure),
// calcium, vitamin D and kidney function, fractures and visits; the last DXA is under 2 years old, so no repeat now:
// a note with the result and the next due date (BHOF 2022, ISCD 2023, CMS NCD 150.3).
import type { MedicationRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { clinicalNote, isMedication } from '../../../graders/lib/index.ts';
import { ALENDRONATE, lastDxa } from './grader.ts';

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  await fhir.search('MedicationRequest', { patient, code: 'http://www.nlm.nih.gov/research/umls/rxnorm|46041' });
  await fhir.search('DiagnosticReport', { patient, code: 'http://loinc.org|38269-7', _sort: '-date' });
  const last = (await lastDxa(fhir, patient))!;
  await fhir.read('DiagnosticReport', last.refs[0].split('/')[1]);
  await fhir.search('ServiceRequest', { patient, code: 'http://snomed.info/sct|312681000' });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|17861-6', _sort: '-date', _count: 3 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|1989-3,http://loinc.org|14635-7', _sort: '-date', _count: 3 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|33914-3,http://loinc.org|62238-1', _sort: '-date', _count: 3 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 10 });
  await fhir.search('CarePlan', { patient, status: 'active' });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 5 });

  const alendronate = active.filter((o) => isMedication(o.medicationCodeableConcept, ALENDRONATE));
  const since = alendronate.map((o) => (o.authoredOn ?? '').slice(0, 10)).sort()[0];
  const lastDate = last.dates[0];
  const nextDue = new Date(Date.parse(last.when) + 730 * 86_400_000).toISOString().slice(0, 10);
  const text = [
    'BONE HEALTH E-CONSULT NOTE',
    'Question: repeat DXA to check response to alendronate.',
    `Osteoporosis on alendronate 70 mg weekly since ${since}.`,
    `Last DXA ${lastDate}: lumbar spine T-score ${last.lumbar}, femoral neck T-score ${last.femoral}.`,
    `A repeat DXA now would come less than 2 years after the last one and cannot show a change beyond the least significant change: not ordered.`,
    `Next DXA due ${nextDue} (2 years after the last). Meanwhile: adherence and dosing technique, calcium 1200 mg and vitamin D 800 IU daily, fall prevention.`,
  ].join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Bone health e-consult: repeat DXA request', title: 'Bone health e-consult', text }));
  await finish(JSON.stringify({ orderDxa: false, lastDxa: lastDate, nextDue, reason: 'Last DXA less than 2 years ago: repeat not indicated yet' }));
}
