// Finds the panel's diabetics by a Condition code search in both systems, then every lab result of the past year
// (date-bounded search) and recognises HbA1c by its name; answers with JSON inside a short sentence.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'Condition code search, A1c recognised by name in date-bounded lab searches; JSON inside prose';

const ICD = ['E11.9', 'E11.65', 'E11.8', 'E11.21', 'E11.22', 'E11.29', 'E11.40', 'E11.42', 'E11.51', 'E11.59', 'E11.649', 'E11.69'].map((c) => `http://hl7.org/fhir/sid/icd-10-cm|${c}`);

export default async function ({ http, now, submit }: CaseContext): Promise<void> {
  const panel = await http.search<Patient>('Patient', { 'general-practitioner': 'Practitioner/s1-prac-primary-care-1' });
  const mine = new Set(panel.map((p) => p.id!));
  const found = await http.search<Condition>('Condition', { code: ['http://snomed.info/sct|44054006', ...ICD].join(','), category: 'problem-list-item', 'clinical-status': 'active' });
  const cohort = [...new Set(found.map((c) => c.subject!.reference!.split('/')[1]!))].filter((p) => mine.has(p));
  const since = new Date(Date.parse(now) - 365 * 86400_000).toISOString();
  const values = new Map<string, number>();
  for (const p of cohort) {
    const labs = await http.search<Observation>('Observation', { patient: p, category: 'laboratory', date: `ge${since}`, _sort: '-date' });
    const a1c = labs.filter((o) => /a1c/i.test([o.code.text, ...(o.code.coding ?? []).map((c) => `${c.code} ${c.display}`)].join(' ')) && o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined && Date.parse(o.effectiveDateTime!) <= Date.parse(now))
      .sort((a, b) => Date.parse(b.effectiveDateTime!) - Date.parse(a.effectiveDateTime!))[0];
    if (a1c) values.set(p, a1c.valueQuantity!.value!);
  }
  const atGoal = cohort.filter((p) => values.has(p) && values.get(p)! < 7).length;
  const result = { cohort: cohort.length, atGoal, percentAtGoal: Math.round(1000 * atGoal / cohort.length) / 10, a1c8OrAbove: cohort.filter((p) => values.has(p) && values.get(p)! >= 8).map((p) => `Patient/${p}`) };
  await submit(`Here is the panel summary: ${JSON.stringify(result)}.`);
}
