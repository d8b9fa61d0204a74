// Condition search by code in both systems, then each patient's lab results of the past 730 days recognised as eGFR
// by name; answers with JSON inside a sentence.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, Observation } from '@medplum/fhirtypes';

export const description = 'Condition code search (SNOMED + ICD-10-CM), eGFR by name in date-bounded lab searches; JSON in prose';

const CODES = ['http://snomed.info/sct|433144002', 'http://snomed.info/sct|700378005', 'http://snomed.info/sct|700379002',
  'http://hl7.org/fhir/sid/icd-10-cm|N18.3', 'http://hl7.org/fhir/sid/icd-10-cm|N18.30', 'http://hl7.org/fhir/sid/icd-10-cm|N18.31', 'http://hl7.org/fhir/sid/icd-10-cm|N18.32'];

export default async function ({ http, now, submit }: CaseContext): Promise<void> {
  const found = await http.search<Condition>('Condition', { code: CODES.join(','), category: 'problem-list-item', 'clinical-status': 'active' });
  const cohort = [...new Set(found.map((c) => c.subject!.reference!.split('/')[1]!))].sort();
  const since = new Date(Date.parse(now) - 730 * 86400_000).toISOString();
  const rows: { patient: string; slope: number }[] = [];
  for (const p of cohort) {
    const labs = await http.search<Observation>('Observation', { patient: p, category: 'laboratory', date: `ge${since}` });
    const pts = labs.filter((o) => /\begfr\b|glomerular filtration/i.test([o.code.text, ...(o.code.coding ?? []).map((c) => c.display)].join(' ')) && o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined && Date.parse(o.effectiveDateTime!) <= Date.parse(now))
      .map((o): [number, number] => [Date.parse(o.effectiveDateTime!) / 86400_000 / 365.25, o.valueQuantity!.value!]);
    if (pts.length < 2) continue;
    const mx = pts.reduce((s, [x]) => s + x, 0) / pts.length;
    const my = pts.reduce((s, [, y]) => s + y, 0) / pts.length;
    rows.push({ patient: p, slope: pts.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0) / pts.reduce((s, [x]) => s + (x - mx) ** 2, 0) });
  }
  const mean = rows.reduce((s, r) => s + r.slope, 0) / rows.length;
  await submit(`Result: ${JSON.stringify({ patients: rows.length, meanSlope: Number(mean.toFixed(2)), rapidProgressors: rows.filter((r) => r.slope < -5).map((r) => `Patient/${r.patient}`) })}`);
}
