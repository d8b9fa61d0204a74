// Never opens the chart: orders Epclusa for everyone and reports an invented FIB-4.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'reads nothing; Epclusa 400/100 for 12 weeks; FIB-4 made up';
export const catches = ['reviewed_hcv_workup', 'reviewed_medications', 'fib4_stated'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { text: 'sofosbuvir 400 mg / velpatasvir 100 mg tablet' }, dosageInstruction: [{ text: '1 tablet daily for 12 weeks' }] });
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from('FIB-4 1.0. Sofosbuvir/velpatasvir 12 weeks, SVR12 after.').toString('base64') } }] });
  await submit('FIB-4 1.0; started sofosbuvir/velpatasvir 12 weeks.');
}
