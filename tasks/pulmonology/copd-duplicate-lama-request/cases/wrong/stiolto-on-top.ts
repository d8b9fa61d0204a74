// Adds Stiolto (tiotropium/olodaterol) on top of whatever long-acting inhaler is already there (a second LAMA or LABA).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Procedure } from '@medplum/fhirtypes';

export const description = 'adds Stiolto without stopping the current long-acting inhaler';
export const catches = ['lama_decision', 'safe_inhaler_regimen'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search('MedicationRequest', { patient, status: 'active' });
  const spiro = (await http.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|127783003' }))
    .filter((p) => /FEV1\/FVC/.test(JSON.stringify(p.note ?? []))).sort((a, b) => (b.performedDateTime ?? '').localeCompare(a.performedDateTime ?? ''))[0]!;
  const subject = { reference: `Patient/${patient}` };
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { text: 'tiotropium/olodaterol (Stiolto Respimat) 2.5/2.5 mcg' }, dosageInstruction: [{ text: '2 puffs once daily' }] });
  const text = `COPD. ${(spiro.note ?? []).map((n) => n.text).join(' ')}. Started Stiolto (tiotropium/olodaterol) 2 puffs daily.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit('Started Stiolto (tiotropium/olodaterol) 2 puffs daily.');
}
