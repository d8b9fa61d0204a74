// Always declines ("2 years after the last one"), even after years of treatment with no DXA since.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DiagnosticReport } from '@medplum/fhirtypes';

export const description = 'never orders; next due = last + 2 years even when that is long past';
export const catches = ['dxa_order_matches', 'dxa_judgement', 'next_due_date'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search('MedicationRequest', { patient });
  const last = (await http.search<DiagnosticReport>('DiagnosticReport', { patient, code: 'http://loinc.org|38269-7' })).sort((a, b) => Date.parse(b.effectiveDateTime!) - Date.parse(a.effectiveDateTime!))[0]!;
  const next = new Date(Date.parse(last.effectiveDateTime!) + 730 * 86_400_000).toISOString().slice(0, 10);
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`Last DXA ${last.effectiveDateTime!.slice(0, 10)}: ${last.conclusion} Not indicated now; next DXA due ${next}.`).toString('base64') } }] });
  await submit({ orderDxa: false, lastDxa: last.effectiveDateTime!.slice(0, 10), nextDue: next });
}
