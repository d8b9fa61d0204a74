// Looks at the chart, fixes nothing and files a boilerplate "reconciled, no changes" note whatever the chart says.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'reads the summary and orders, changes nothing, says the lists agree';
export const catches = ['discrepancies_fixed', 'answer_names_discrepancies', 'reconciliation_note'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search('Composition', { patient, type: 'http://loinc.org|18842-5' });
  await http.search('MedicationRequest', { patient, status: 'active' });
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from('Medication reconciliation completed; the discharge list matches the active orders, no changes.').toString('base64') } }] });
  await submit('Reconciled; the discharge list matches the active orders, no changes made.');
}
