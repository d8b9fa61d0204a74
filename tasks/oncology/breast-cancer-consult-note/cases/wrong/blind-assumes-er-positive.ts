// A blind agent: reads only the problem list and assumes the commonest profile (ER+/PR+/HER2-) with "typical" labs.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition } from '@medplum/fhirtypes';

export const description = 'never reads pathology or labs; assumes IDC grade 2 ER+/PR+/HER2- and invents normal labs';
export const catches = ['note_covers_key_facts', 'note_grounded', 'reviewed_pathology', 'reviewed_recent_labs'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const cancer = (await http.search<Condition>('Condition', { patient, code: 'http://snomed.info/sct|254837009' }))[0];
  const diagnosed = (cancer?.onsetDateTime ?? '').slice(0, 10);
  const text = `Invasive ductal carcinoma, grade 2; ER positive, PR positive, HER2 negative. Diagnosed ${diagnosed}.\nHemoglobin 13.2 g/dL; creatinine 0.8 mg/dL.\nRecommendations: annual mammography; tumor markers and PET/CT are not recommended.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit({ diagnosed, er: 'positive', pr: 'positive', her2: 'negative', tumorMarkers: false, petCt: false });
}
