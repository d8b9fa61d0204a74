// Never reads the chart: a template note and answer that decline the request, with made-up spirometry.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'blind: no chart reads, template decline';
export const catches = ['reviewed_active_inhalers', 'reviewed_spirometry', 'note_spirometry'];

export default async function ({ patient, now, http, submit }: CaseContext): Promise<void> {
  const text = 'COPD e-consult. FEV1 55% predicted, FEV1/FVC 0.60. Already on tiotropium (Spiriva) - duplicate LAMA, not ordered. Check technique.';
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit('Not ordered: already on Spiriva (tiotropium), a second LAMA would duplicate it.');
}
