// Declines sensibly but fills the oncologic fields from habit: Gleason 3+4 and a made-up date for every man.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'always answers Gleason 3+4, diagnosed 2020-01-01';
export const catches = ['gleason_and_date'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search('Condition', { patient });
  await http.search('Observation', { patient, code: 'http://loinc.org|2986-8' });
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from('Prostate cancer, Gleason 3+4=7, 3 of 12 cores, diagnosed 2020. Testosterone not recommended.').toString('base64') } }] });
  await submit(JSON.stringify({ startTestosterone: false, gleason: '3+4', diagnosed: '2020-01-01' }));
}
