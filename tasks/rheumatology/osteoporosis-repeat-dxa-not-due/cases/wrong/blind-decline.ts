// Never opens the chart: declines with made-up dates.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'blind agent: declines with made-up dates, boilerplate note';
export const catches = ['reviewed_last_dxa', 'reviewed_treatment'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from('DXA not due; repeat in 2 years.').toString('base64') } }] });
  await submit({ orderDxa: false, lastDxa: '2024-07-01', nextDue: '2026-07-01' });
}
