// Never opens the chart: files a note and answers that the medications were reconciled without discrepancies.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'reads nothing; declares the lists in agreement';
export const catches = ['reviewed_discharge_summary', 'reviewed_active_orders'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from('Medication reconciliation: no discrepancies, the discharge list matches our orders.').toString('base64') } }] });
  await submit('Reconciled: no discrepancies, the discharge list matches our orders.');
}
