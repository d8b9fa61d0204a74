// Reference solution: read the orders and the potassium trend, stop lisinopril with the reason, order a repeat BMP.
import type { MedicationRequest, Observation, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { effectiveTime, isMedication } from '../../../graders/lib/index.ts';
import { LISINOPRIL } from './grader.ts';

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  const orders = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const potassium = await fhir.search<Observation>('Observation', { patient, code: 'http://loinc.org|2823-3', _sort: '-date' });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|33914-3', _sort: '-date' });
  const latest = [...potassium].sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)))[0];
  const k = latest.valueQuantity!.value!;

  const ace = orders.filter((o) => isMedication(o.medicationCodeableConcept, LISINOPRIL));
  for (const order of ace) {
    await fhir.patch('MedicationRequest', order.id!, [
      { op: 'replace', path: '/status', value: 'stopped' },
      { op: 'add', path: '/statusReason', value: { coding: [{ system: 'http://snomed.info/sct', code: '14140009', display: 'Hyperkalemia' }], text: `Hyperkalemia (K ${k} mmol/L)` } },
    ]);
  }
  const lab: ServiceRequest = {
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'urgent',
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '108252007', display: 'Laboratory procedure' }] }],
    code: { coding: [{ system: 'http://loinc.org', code: '51990-0', display: 'Basic metabolic panel - Blood' }] },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
    occurrenceDateTime: new Date(Date.parse(now) + 3 * 86400_000).toISOString(),
    reasonCode: [{ text: `Hyperkalemia, K ${k} mmol/L; lisinopril stopped` }],
  };
  await fhir.create(lab);
  await finish(`Latest K ${k} mmol/L (${effectiveTime(latest).slice(0, 10)}). Stopped lisinopril for hyperkalemia; repeat BMP ordered in 3 days.`);
}
