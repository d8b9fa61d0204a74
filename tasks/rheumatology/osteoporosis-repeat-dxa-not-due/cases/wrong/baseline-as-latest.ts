// Takes the earliest DXA as "the last one" and orders when it is over a year old.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DiagnosticReport } from '@medplum/fhirtypes';

export const description = 'reads the baseline (oldest) DXA as the latest';
export const catches = ['dxa_order_matches', 'dxa_judgement'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search('MedicationRequest', { patient });
  const first = (await http.search<DiagnosticReport>('DiagnosticReport', { patient, code: 'http://loinc.org|38269-7' })).sort((a, b) => Date.parse(a.effectiveDateTime!) - Date.parse(b.effectiveDateTime!))[0]!;
  const due = Date.parse(now) - Date.parse(first.effectiveDateTime!) > 365 * 86_400_000;
  if (due) await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, code: { coding: [{ system: 'http://snomed.info/sct', code: '312681000' }] } });
  const next = new Date(Date.parse(first.effectiveDateTime!) + 730 * 86_400_000).toISOString().slice(0, 10);
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`Last DXA ${first.effectiveDateTime!.slice(0, 10)}: ${first.conclusion} ${due ? 'Repeat DXA is due now; ordered.' : `Not due; next DXA due ${next}.`}`).toString('base64') } }] });
  await submit({ orderDxa: due, lastDxa: first.effectiveDateTime!.slice(0, 10), nextDue: due ? now.slice(0, 10) : next });
}
