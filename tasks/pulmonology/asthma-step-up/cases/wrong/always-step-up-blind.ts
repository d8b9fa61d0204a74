// Steps up to Advair on every chart without reading the control test, the fills or the spirometry (the question
// "does it need stepping up?" taken as the answer).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest } from '@medplum/fhirtypes';

export const description = 'blind step up to Advair on every chart';
export const catches = ['controller_decision', 'reviewed_control_and_adherence', 'reviewed_spirometry'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const subject = { reference: `Patient/${patient}` };
  for (const o of meds.filter((m) => /fluticasone/i.test(JSON.stringify(m.medicationCodeableConcept)))) await http.update({ ...o, id: o.id!, status: 'stopped', statusReason: { text: 'step up' } });
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { text: 'Advair Diskus 250/50' }, dosageInstruction: [{ text: '1 inhalation twice daily' }] });
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from('Asthma not well controlled. Start Advair 250/50 one inhalation twice daily.').toString('base64') } }] });
  await submit('Not well controlled: stepped up to Advair 250/50 twice daily.');
}
