// A template that never opens the chart: declines testosterone for "prostate cancer" it never looked up.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'never reads the chart; templated decline';
export const catches = ['reviewed_cancer_history', 'reviewed_key_results', 'gleason_and_date', 'consult_note', 'testosterone_decision'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from('Testosterone is contraindicated in prostate cancer - not recommended.').toString('base64') } }] });
  await submit(JSON.stringify({ startTestosterone: false, gleason: null, diagnosed: null }));
}
