// Reference solution: check age, prior colonoscopy or stool testing, colorectal cancer or IBD on the problem list,
// anticoagulants and recent encounters; screening is due, so order one screening colonoscopy (USPSTF 2021).
import type { Patient, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read<Patient>('Patient', patient);
  await fhir.search('Condition', { patient });
  await fhir.search('Procedure', { patient });
  await fhir.search('Procedure', { patient, code: 'http://snomed.info/sct|73761001' });
  await fhir.search('DiagnosticReport', { patient, _sort: '-date', _count: 20 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|29771-3,http://loinc.org|57905-2,http://loinc.org|77353-1' });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|718-7', _sort: '-date', _count: 5 });
  await fhir.search('ServiceRequest', { patient, status: 'active' });
  await fhir.search('MedicationRequest', { patient, status: 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 10 });
  await fhir.search('Appointment', { patient });
  await fhir.search('CarePlan', { patient, status: 'active' });
  await fhir.search('Immunization', { patient });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 5 });
  await fhir.create<ServiceRequest>({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'routine',
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '387713003', display: 'Surgical procedure' }] }],
    code: { coding: [{ system: 'http://snomed.info/sct', code: '73761001', display: 'Colonoscopy' }], text: 'Screening colonoscopy' },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
    reasonCode: [{ coding: [{ system: 'http://snomed.info/sct', code: '275978004', display: 'Screening for malignant neoplasm of colon' }], text: 'Average-risk colorectal cancer screening (USPSTF 2021)' }],
  });
  await finish(JSON.stringify({ due: true, ordered: 'screening colonoscopy' }));
}
