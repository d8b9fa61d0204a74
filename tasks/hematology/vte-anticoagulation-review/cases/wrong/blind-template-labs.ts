// A blind agent: never reads the labs; its note quotes "typical" values and a made-up warfarin history.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition } from '@medplum/fhirtypes';

export const description = 'template note with invented labs (Hgb 13.5, platelets 250, creatinine 0.9) and warfarin';
export const catches = ['note_covers_key_facts', 'note_grounded', 'reviewed_bleeding_labs'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const problems = await http.search<Condition>('Condition', { patient });
  const dvt = problems.find((c) => /deep vein thrombosis/i.test(c.code?.text ?? ''));
  const text = [
    `DVT diagnosed ${dvt?.onsetDateTime?.slice(0, 10)}. Treated with warfarin 5 mg daily.`,
    'Hemoglobin 13.5 g/dL, platelets 250 x10^3/uL, creatinine 0.9 mg/dL.',
    'Recommendation: decide on the length of therapy at the visit, weighing recurrence against bleeding risk.',
  ].join('\n');
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit({ diagnosed: dvt?.onsetDateTime?.slice(0, 10), anticoagulant: 'warfarin', started: null, stopped: null, currentlyAnticoagulated: true, monthsTreated: 6 });
}
