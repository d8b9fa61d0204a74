// Reference solution: read demographics, the problem list and the orders; compute CHA2DS2-VASc; the patient is
// already anticoagulated, so order nothing and leave a short note with the score and the reasoning.
import type { MedicationRequest, Patient } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { clinicalNote } from '../../../graders/lib/index.ts';
import { chadsvasc, isAnticoagulant } from './grader.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read<Patient>('Patient', patient);
  await fhir.search('Condition', { patient, _count: 200 });
  await fhir.search('AllergyIntolerance', { patient });
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  await fhir.search('MedicationRequest', { patient, code: 'http://www.nlm.nih.gov/research/umls/rxnorm|1364430,http://www.nlm.nih.gov/research/umls/rxnorm|1364445,http://www.nlm.nih.gov/research/umls/rxnorm|1364435,http://www.nlm.nih.gov/research/umls/rxnorm|855332' });
  await fhir.search('Procedure', { patient, _sort: '-date', _count: 20 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|718-7,${FLOWSHEET}|HGB`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|33914-3,${FLOWSHEET}|EGFR`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|2160-0,${FLOWSHEET}|CREAT`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|6301-6,${FLOWSHEET}|INR`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, category: 'vital-signs', _sort: '-date', _count: 20 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 10 });
  await fhir.search('CarePlan', { patient, status: 'active' });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 5 });
  // The scoring itself (the grader's function: same rules a clinician applies; it reads Patient and Condition again).
  const { score, parts } = await chadsvasc(fhir, patient, now);

  const oac = active.filter(isAnticoagulant);
  const current = oac.map((o) => `${o.medicationCodeableConcept?.text ?? 'anticoagulant'} (${o.dosageInstruction?.[0]?.text ?? 'see sig'})`).join('; ');
  const text = [
    'Cardiology e-consult: atrial fibrillation, stroke prevention.',
    `CHA2DS2-VASc score ${score} (${parts.map((p) => p.replace(/: Condition\/.*/, '')).join(', ')}).`,
    `Already anticoagulated: ${current}. Anticoagulation is indicated and in place; no additional anticoagulant ordered (a second agent would duplicate therapy and raise bleeding risk).`,
    'Continue the current anticoagulant; yearly kidney function and CBC.',
  ].join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'AF anticoagulation review', text }));
  await finish(JSON.stringify({ chadsvasc: score, startAnticoagulant: false, currentAnticoagulant: current }));
}
