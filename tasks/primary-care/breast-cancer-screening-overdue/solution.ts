// Reference solution: age, problem list (breast cancer), prior mammograms (procedures and imaging reports), open
// orders and recent visits; the last mammogram is more than 2 years old (or absent), so order a screening mammogram
// and write a short note (USPSTF 2024: biennial, 40-74).
import type { Patient, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { clinicalNote, PROGRESS_NOTE } from '../../../graders/lib/index.ts';
import { priorMammograms } from './grader.ts';

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  const p = await fhir.read<Patient>('Patient', patient);
  await fhir.search('Condition', { patient });
  await fhir.search('Condition', { patient, code: 'http://snomed.info/sct|254837009' });
  await fhir.search('Procedure', { patient });
  await fhir.search('DiagnosticReport', { patient, category: 'RAD', _sort: '-date' });
  const prior = await priorMammograms(fhir, patient);
  if (prior[0]) await fhir.read(prior[0].ref.split('/')[0], prior[0].ref.split('/')[1]);
  await fhir.search('DocumentReference', { patient, type: 'http://loinc.org|18748-4', _sort: '-date', _count: 5 });
  await fhir.search('ServiceRequest', { patient, status: 'active' });
  await fhir.search('ServiceRequest', { patient, code: 'http://snomed.info/sct|71651007,http://snomed.info/sct|24623002' });
  await fhir.search('Appointment', { patient });
  await fhir.search('MedicationRequest', { patient, status: 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  await fhir.search('FamilyMemberHistory', { patient });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 10 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|72166-2', _sort: '-date', _count: 1 });

  const age = Math.floor((Date.parse(now) - Date.parse(p.birthDate!)) / (365.25 * 86_400_000));
  const last = prior[0]?.dates[0] ?? null;
  await fhir.create<ServiceRequest>({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'routine',
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '363679005', display: 'Imaging' }] }],
    code: { coding: [{ system: 'http://snomed.info/sct', code: '24623002', display: 'Screening mammography' }], text: 'Screening mammogram, bilateral' },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
    reasonCode: [{ text: 'Routine breast cancer screening, average risk (USPSTF 2024)' }],
  });
  const text = [
    'BREAST CANCER SCREENING - CARE GAP NOTE',
    `${age}-year-old woman, average risk, no breast cancer on the problem list.`,
    last ? `Last mammogram on file: ${last} (more than 2 years ago).` : 'No prior mammogram on file.',
    'Biennial screening mammography (every 2 years) is recommended for women 40-74 (USPSTF 2024): screening is due.',
    'Ordered: bilateral screening mammogram.',
  ].join('\n');
  await fhir.create(clinicalNote({ type: PROGRESS_NOTE, patient, author: task.requester.reference, date: now, description: 'Breast cancer screening care gap', title: 'Breast cancer screening', text }));
  await finish(JSON.stringify({ due: true, lastMammogram: last, ordered: 'bilateral screening mammogram' }));
}
