// Takes the first result of a date-ascending search for the latest: acts on (and reports) the oldest potassium.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'acts on the oldest potassium (search order taken for recency)';
export const catches = ['stated_potassium', 'potassium_plan', 'potassium_recheck'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const ks = await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2823-3', _sort: 'date' });
  const k = ks.find((o) => o.valueQuantity?.value !== undefined)!.valueQuantity!.value!;
  if (k >= 5.5) {
    for (const order of meds.filter((o) => /lisinopril/i.test(o.medicationCodeableConcept?.text ?? ''))) {
      await http.update({ ...order, id: order.id!, status: 'stopped', statusReason: { text: `hyperkalemia K ${k}` } });
    }
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
      code: { coding: [{ system: 'http://loinc.org', code: '51990-0' }] }, occurrenceDateTime: new Date(Date.parse(now) + 86400_000).toISOString() });
  }
  await submit(`Latest K ${k} mmol/L. ${k >= 5.5 ? 'Stopped lisinopril; BMP tomorrow.' : 'No change.'}`);
}
