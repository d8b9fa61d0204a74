// Reads the potassium correctly but stops lisinopril whatever it shows and leaves any potassium supplement running:
// right only on a chart where K >= 5.5 and nothing else raises it.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'stops lisinopril on every chart (even with a normal latest K), leaves potassium supplements';
export const catches = ['potassium_plan'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const ks = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2823-3,http://ehr-gym.example/fhir/CodeSystem/flowsheet|K' }))
    .filter((o) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error')
    .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''));
  const k = ks[0]!.valueQuantity!.value!;
  for (const order of meds.filter((o) => /lisinopril/i.test(o.medicationCodeableConcept?.text ?? ''))) {
    await http.update({ ...order, id: order.id!, status: 'stopped', statusReason: { text: `potassium ${k}` } });
  }
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
    code: { coding: [{ system: 'http://loinc.org', code: '51990-0' }] }, occurrenceDateTime: new Date(Date.parse(now) + 86400_000).toISOString() });
  await submit(`Latest K ${k} mmol/L. Lisinopril stopped; BMP tomorrow.`);
}
