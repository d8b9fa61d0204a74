// Holds lisinopril and stops supplements at K >= 5.5 (a defensible plan) but rechecks potassium only in four weeks.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'right plan at K >= 5.5, but the potassium recheck is due in 4 weeks';
export const catches = ['potassium_recheck'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const ks = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2823-3,http://ehr-gym.example/fhir/CodeSystem/flowsheet|K' }))
    .filter((o) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error')
    .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''));
  const k = ks[0]!.valueQuantity!.value!;
  if (k < 5.5) {
    await submit(`K ${k} mmol/L, continue lisinopril.`);
    return;
  }
  for (const order of meds.filter((o) => /lisinopril|potassium chloride/i.test(o.medicationCodeableConcept?.text ?? ''))) {
    await http.update({ ...order, id: order.id!, status: 'on-hold', statusReason: { text: `hyperkalemia K ${k}` } });
  }
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
    code: { coding: [{ system: 'http://loinc.org', code: '51990-0' }] }, occurrenceDateTime: new Date(Date.parse(now) + 28 * 86400_000).toISOString() });
  await submit(`K ${k} mmol/L. Lisinopril held; BMP in 4 weeks.`);
}
