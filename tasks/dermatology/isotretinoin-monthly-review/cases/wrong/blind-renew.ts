// Never opens the chart: sends the next month's prescription for everyone.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'reads nothing; renews isotretinoin 40 mg twice daily for everyone';
export const catches = ['reviewed_ipledge_inputs', 'reviewed_medications', 'renewal_decision'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const subject = { reference: `Patient/${patient}` };
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { text: 'isotretinoin 40 mg capsule' },
    dosageInstruction: [{ text: '40 mg twice daily' }], dispenseRequest: { expectedSupplyDuration: { value: 30, unit: 'days' } } });
  const text = 'iPLEDGE requirements reviewed; renewed isotretinoin for 30 days.';
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(text);
}
