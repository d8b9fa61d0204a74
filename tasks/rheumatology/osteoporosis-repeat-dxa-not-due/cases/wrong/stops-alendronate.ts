// Right DXA decision, but also stops the osteoporosis treatment ("drug holiday") before any new DXA result.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DiagnosticReport, MedicationRequest } from '@medplum/fhirtypes';

export const description = 'stops the bisphosphonate on its own before the DXA';
export const catches = ['no_treatment_change'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient })).filter((m) => /alendronate|fosamax|46041/i.test(JSON.stringify(m.medicationCodeableConcept)));
  const since = meds.map((m) => m.authoredOn ?? '').filter(Boolean).sort()[0]!;
  const last = (await http.search<DiagnosticReport>('DiagnosticReport', { patient, code: 'http://loinc.org|38269-7' })).sort((a, b) => Date.parse(b.effectiveDateTime!) - Date.parse(a.effectiveDateTime!))[0]!;
  await http.read('DiagnosticReport', last.id!);
  const due = Date.parse(now) - Date.parse(last.effectiveDateTime!) > 2 * 365 * 86_400_000 && Date.parse(now) - Date.parse(since) > 5 * 365 * 86_400_000;
  for (const m of meds.filter((x) => x.status === 'active')) {
    const fresh = await http.read<MedicationRequest>('MedicationRequest', m.id!);
    await http.update({ ...fresh, id: m.id!, status: 'stopped' });
  }
  if (due) await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, code: { coding: [{ system: 'http://snomed.info/sct', code: '312681000' }] } });
  const next = new Date(Date.parse(last.effectiveDateTime!) + 730 * 86_400_000).toISOString().slice(0, 10);
  const t = [...(last.conclusion ?? '').matchAll(/T-score (-?\d+\.\d)/g)].map((m) => m[1]).join(' and ');
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`Last DXA ${last.effectiveDateTime!.slice(0, 10)}, T-scores ${t}. ${due ? 'Repeat DXA is due now; ordered.' : `Not due; next DXA due ${next}.`} Alendronate stopped (drug holiday).`).toString('base64') } }] });
  await submit({ orderDxa: due, lastDxa: last.effectiveDateTime!.slice(0, 10), nextDue: due ? now.slice(0, 10) : next });
}
