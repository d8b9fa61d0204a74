// Reads DXA reports and procedures and the treatment orders; decides (last DXA < 1 year: not due; 5+ years of
// treatment and last DXA 2+ years old: due); orders by CPT 77080 without a category; answers in prose with US dates.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DiagnosticReport, MedicationRequest, Procedure } from '@medplum/fhirtypes';

export const description = 'CPT 77080 order without category when due; prose answer and note with US dates';

const us = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search('Condition', { patient });
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient })).filter((m) => /alendron|fosamax|risedron|ibandron|zoledron|denosumab/i.test(JSON.stringify(m.medicationCodeableConcept)) || m.medicationCodeableConcept?.coding?.some((c) => c.code === '46041'));
  for (const m of meds.filter((x) => x.status === 'active')) await http.read('MedicationRequest', m.id!);
  const since = meds.map((m) => m.authoredOn ?? '').filter(Boolean).sort()[0]!;
  const reports = await http.search<DiagnosticReport>('DiagnosticReport', { patient, code: 'http://loinc.org|38269-7' });
  const procs = await http.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|312681000' });
  const all = [...reports.map((r) => ({ when: r.effectiveDateTime!, text: r.conclusion ?? '' })), ...procs.map((x) => ({ when: x.performedDateTime!, text: '' }))].sort((a, b) => Date.parse(b.when) - Date.parse(a.when));
  const last = all[0]!;
  const t = [...last.text.matchAll(/T-score (-?\d+\.\d)/g)].map((m) => m[1]);
  const months = (Date.parse(now) - Date.parse(last.when)) / (30.44 * 86_400_000);
  const years = (Date.parse(now) - Date.parse(since)) / (365.25 * 86_400_000);
  const due = months >= 24 && years >= 5;
  if (due) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      code: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '77080', display: 'DXA bone density axial' }] }, reasonCode: [{ text: 'Osteoporosis on long-term bisphosphonate' }] });
  }
  const next = new Date(Date.parse(last.when) + 730 * 86_400_000).toISOString().slice(0, 10);
  const decision = due ? `Repeat DXA is due now (${years.toFixed(0)} years of treatment): ordered.` : `Repeat DXA not indicated yet. Next DXA due ${us(next)}.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`Last DXA ${us(last.when.slice(0, 10))}: spine T-score ${t[0]}, femoral neck T-score ${t[1]}. ${decision}`).toString('base64') } }] });
  await submit(`Last DXA ${us(last.when.slice(0, 10))}. ${decision}`);
}
