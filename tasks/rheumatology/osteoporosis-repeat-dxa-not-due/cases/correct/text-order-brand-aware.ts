// Recognises treatment by brand or generic name, orders a text-only "DEXA scan hip and spine" when due, answers with
// "no"/"yes" strings and a next-due date two years after the last DXA.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DiagnosticReport, MedicationRequest } from '@medplum/fhirtypes';

export const description = 'text-only DEXA order when due; "yes"/"no" answer; next due 2 years after the last';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search('Condition', { patient });
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient })).filter((m) => /alendronate|fosamax|46041/i.test(JSON.stringify(m.medicationCodeableConcept)));
  for (const m of meds.filter((x) => x.status === 'active')) await http.read('MedicationRequest', m.id!);
  const since = meds.map((m) => m.authoredOn ?? '').filter(Boolean).sort()[0]!;
  const reports = (await http.search<DiagnosticReport>('DiagnosticReport', { patient, code: 'http://loinc.org|38269-7' })).sort((a, b) => Date.parse(b.effectiveDateTime!) - Date.parse(a.effectiveDateTime!));
  const last = reports[0]!;
  await http.read('DiagnosticReport', last.id!);
  const ageMonths = (Date.parse(now) - Date.parse(last.effectiveDateTime!)) / (30.44 * 86_400_000);
  const due = ageMonths > 24 && Date.parse(now) - Date.parse(since) > 5 * 365 * 86_400_000;
  if (due) await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, code: { text: 'DEXA scan hip and spine' } });
  const next = due ? null : `${Number(last.effectiveDateTime!.slice(0, 4)) + 2}${last.effectiveDateTime!.slice(4, 10)}`;
  const note = `DEXA ${last.effectiveDateTime!.slice(0, 10)}: ${last.conclusion} ${due ? 'Long-term therapy: repeat DEXA indicated, ordered.' : `Do not order a repeat now; next due ${next}.`}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ orderDxa: due ? 'yes' : 'no', lastDxa: last.effectiveDateTime!.slice(0, 10), nextDue: next });
}
