// The review's blind agent: two searches whose results it never looks at, then a colonoscopy order and "due" for
// everyone. Right only where screening happens to be due.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'never reads the chart: searches, ignores the results, orders a colonoscopy, says due';
export const catches = ['due_judgement', 'screening_order'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search('Procedure', { patient });
  await http.search('Condition', { patient });
  await http.create({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order',
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '387713003' }] }],
    code: { coding: [{ system: 'http://snomed.info/sct', code: '73761001', display: 'Colonoscopy' }] },
    subject: { reference: `Patient/${patient}` }, authoredOn: now,
  });
  await submit(JSON.stringify({ due: true, ordered: 'colonoscopy' }));
}
