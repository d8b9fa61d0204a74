// Reference solution: age, problem list, prior DXA (procedures and imaging reports), bone-active and bone-harming
// medications, fracture history and kidney function; no DXA on file at 65+, so order one (USPSTF 2025).
import type { Patient, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  const p = await fhir.read<Patient>('Patient', patient);
  await fhir.search('Condition', { patient });
  await fhir.search('Condition', { patient, code: 'http://snomed.info/sct|64859006' });
  await fhir.search('Procedure', { patient });
  await fhir.search('Procedure', { patient, code: 'http://snomed.info/sct|312681000' });
  await fhir.search('DiagnosticReport', { patient, category: 'RAD', _sort: '-date' });
  await fhir.search('DiagnosticReport', { patient, code: 'http://loinc.org|38269-7' });
  await fhir.search('ServiceRequest', { patient, status: 'active' });
  await fhir.search('MedicationRequest', { patient, status: 'active' });
  await fhir.search('MedicationRequest', { patient, code: 'http://www.nlm.nih.gov/research/umls/rxnorm|46041,http://www.nlm.nih.gov/research/umls/rxnorm|8640' });
  await fhir.search('AllergyIntolerance', { patient });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|33914-3,http://loinc.org|62238-1', _sort: '-date', _count: 3 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|17861-6', _sort: '-date', _count: 3 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|39156-5,http://loinc.org|29463-7', _sort: '-date', _count: 4 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|72166-2', _sort: '-date', _count: 1 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 10 });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 5 });
  const age = Math.floor((Date.parse(now) - Date.parse(p.birthDate!)) / (365.25 * 86_400_000));
  await fhir.create<ServiceRequest>({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'routine',
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '363679005', display: 'Imaging' }] }],
    code: { coding: [{ system: 'http://snomed.info/sct', code: '312681000', display: 'Bone density scan' }], text: 'DXA bone density, hip and lumbar spine' },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
    reasonCode: [{ text: `Osteoporosis screening: woman aged ${age}, no prior DXA (USPSTF 2025)` }],
  });
  await finish(JSON.stringify({ due: true, lastDxa: null, ordered: 'DXA bone density scan (hip and lumbar spine)' }));
}
