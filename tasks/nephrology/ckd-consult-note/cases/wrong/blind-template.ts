// A blind agent: never reads the labs; its note and answer quote "typical" CKD 3b values.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'template note and answer with invented values (eGFR 35, UACR 150, K 4.5), never reads the labs';
export const catches = ['note_covers_key_facts', 'note_grounded', 'reviewed_kidney_labs'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const text = 'CKD. eGFR 35 mL/min/1.73m2, urine albumin/creatinine ratio 150 mg/g, potassium 4.5 mmol/L. On lisinopril 10 mg daily.\nAssessment: CKD G3bA2.\nRecommendations: consider an SGLT2 inhibitor.';
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit({ egfr: 35, uacr: 150, gCategory: 'G3b', aCategory: 'A2' });
}
