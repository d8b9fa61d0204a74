// Never opens the chart: a template note ("CKD - avoid NSAIDs, use acetaminophen") with no kidney numbers or meds.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'reads nothing; template note without the eGFR, potassium or medications';
export const catches = ['reviewed_kidney_and_meds', 'note_covers_key_facts'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const text = 'CKD: avoid NSAIDs including ibuprofen. Recommend acetaminophen for knee pain.';
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit('Do not prescribe ibuprofen. Acetaminophen instead.');
}
