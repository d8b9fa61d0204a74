// Takes the other concordant paths: the optional 12-month CT for a high-risk patient's tiny solid nodule; a
// pulmonology referral for bronchoscopic biopsy (tissue sampling) for the nodule > 8 mm; the 6-12 month CT coded in
// LOINC with an occurrence period; answers in prose.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DiagnosticReport, Observation } from '@medplum/fhirtypes';

export const description = 'optional 12-month CT, pulmonology referral for biopsy, LOINC CT with a 6-12 month period, prose';

const SIZE = /(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)\s*mm\s+(?:pure\s+|spiculated\s+)?(solid|part-solid|ground-glass)/i;
const plusMonths = (d: string, n: number) => { const x = new Date(`${d}T00:00:00Z`); x.setUTCMonth(x.getUTCMonth() + n); return x.toISOString().slice(0, 10); };

export default async function ({ http, patient, submit }: CaseContext): Promise<void> {
  await http.read('Patient', patient);
  await http.search('Condition', { patient, 'clinical-status': 'active' });
  const list = await http.search<DiagnosticReport>('DiagnosticReport', { patient, category: 'RAD' });
  const reports = [];
  for (const r of list) {
    const full = await http.read<DiagnosticReport>('DiagnosticReport', r.id!);
    const m = SIZE.exec(full.conclusion ?? '');
    if (m) reports.push({ date: full.effectiveDateTime!.slice(0, 10), long: Number(m[1]), short: Number(m[2]), type: m[3].toLowerCase() });
  }
  reports.sort((a, b) => b.date.localeCompare(a.date));
  const index = reports[0];
  const mean = (index.long + index.short) / 2;
  const smoking = await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|72166-2' });
  const status = smoking[0]?.valueCodeableConcept?.coding?.[0]?.code ?? '';
  const highRisk = ['77176002', '8517006', '449868002'].includes(status);
  const stable = index.type === 'solid' && reports.slice(1).some((p) => p.date <= plusMonths(index.date, -24) && mean - (p.long + p.short) / 2 < 2);
  const base = { resourceType: 'ServiceRequest' as const, status: 'active' as const, intent: 'order' as const, subject: { reference: `Patient/${patient}` } };
  let plan: string;
  if (stable) plan = 'No further follow-up: the nodule has been stable for more than 2 years.';
  else if (index.type === 'solid' && Math.round(mean) < 6) {
    if (highRisk) {
      await http.create({ ...base, code: { text: 'CT chest low dose without contrast' }, occurrenceDateTime: plusMonths(index.date, 12) });
      plan = `High-risk patient: optional CT chest at 12 months, ordered for ${plusMonths(index.date, 12)}.`;
    } else plan = 'Low risk: no routine follow-up.';
  } else if (index.type === 'solid' && Math.round(mean) > 8) {
    await http.create({ ...base, category: [{ coding: [{ system: 'http://snomed.info/sct', code: '3457005', display: 'Patient referral' }] }],
      code: { coding: [{ system: 'http://snomed.info/sct', code: '3457005', display: 'Patient referral' }], text: 'Referral to pulmonology' },
      performerType: { text: 'Pulmonology' }, reasonCode: [{ text: 'Solid lung nodule > 8 mm: bronchoscopic biopsy (tissue sampling)' }] });
    plan = 'Refer to pulmonology for tissue sampling (navigational bronchoscopy biopsy).';
  } else {
    await http.create({ ...base, code: { coding: [{ system: 'http://loinc.org', code: '24627-2', display: 'CT Chest' }] }, occurrencePeriod: { start: plusMonths(index.date, 6), end: plusMonths(index.date, 12) } });
    plan = 'Repeat CT chest in 6-12 months.';
  }
  const text = `The nodule measures ${index.long} x ${index.short} mm, mean ${mean} mm, ${index.type === 'ground-glass' ? 'pure ground-glass (non-solid)' : index.type}. ${plan}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`Nodule consult. ${text}`).toString('base64') } }] });
  await submit(text);
}
