// Right order and answer, but the note (DXA, dates, T-scores) states the opposite decision.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DiagnosticReport, MedicationRequest } from '@medplum/fhirtypes';

export const description = 'note with every keyword and number stating the opposite decision';
export const catches = ['dxa_note'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient })).filter((m) => /alendronate|fosamax|46041/i.test(JSON.stringify(m.medicationCodeableConcept)));
  const since = meds.map((m) => m.authoredOn ?? '').filter(Boolean).sort()[0]!;
  const last = (await http.search<DiagnosticReport>('DiagnosticReport', { patient, code: 'http://loinc.org|38269-7' })).sort((a, b) => Date.parse(b.effectiveDateTime!) - Date.parse(a.effectiveDateTime!))[0]!;
  const due = Date.parse(now) - Date.parse(last.effectiveDateTime!) > 2 * 365 * 86_400_000 && Date.parse(now) - Date.parse(since) > 5 * 365 * 86_400_000;
  if (due) await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, code: { coding: [{ system: 'http://snomed.info/sct', code: '312681000' }] } });
  const next = new Date(Date.parse(last.effectiveDateTime!) + 730 * 86_400_000).toISOString().slice(0, 10);
  const wrong = due ? `Repeat DXA not indicated; next DXA due ${new Date(Date.parse(now) + 400 * 86_400_000).toISOString().slice(0, 10)}.` : `Repeat DXA is due now and ordered.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`Last DXA ${last.effectiveDateTime!.slice(0, 10)}: ${last.conclusion} ${wrong} (Next scan ${next}.)`).toString('base64') } }] });
  await submit({ orderDxa: due, lastDxa: last.effectiveDateTime!.slice(0, 10), nextDue: due ? now.slice(0, 10) : next });
}
