// Takes the first weight the search returns, oldest first, for the current weight: the mg/kg is wrong wherever the
// weight changed, and with it the dose decision.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation, Procedure } from '@medplum/fhirtypes';

export const description = 'mg/kg from the oldest weight on file';
export const catches = ['dose_per_kg_stated', 'review_note', 'dose_action'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const orders = await http.search<MedicationRequest>('MedicationRequest', { patient });
  const hcq = orders.filter((o) => /hydroxychloroquine/i.test(o.medicationCodeableConcept?.text ?? ''));
  const active = hcq.find((o) => o.status === 'active')!;
  const kg = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|29463-7', _sort: 'date' }))[0].valueQuantity!.value!;
  await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|98979-8' });
  await http.search<Procedure>('Procedure', { patient });
  const d = active.dosageInstruction![0];
  const mg = d.doseAndRate![0].doseQuantity!.value! * (d.timing!.repeat!.frequency ?? 1);
  const perKg = (mg / kg).toFixed(2);
  const subject = { reference: `Patient/${patient}` };
  if (mg / kg > 5) {
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { text: 'hydroxychloroquine 200 mg tablet' }, dosageInstruction: [{ text: '200 mg daily' }] });
    await http.request('PATCH', `MedicationRequest/${active.id}`, [{ op: 'replace', path: '/status', value: 'stopped' }]);
  }
  const text = `HCQ ${perKg} mg/kg/day. ${mg / kg > 5 ? 'Dose reduced to 200 mg daily.' : 'Dose fine.'} Retinal screening not due.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(text);
}
