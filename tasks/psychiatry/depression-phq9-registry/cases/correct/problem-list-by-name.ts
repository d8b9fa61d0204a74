// Reads the whole active problem list and recognises major depression by its name (any code system), then each
// patient's PHQ-9 history; answers with {patient, score} entries.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, Observation } from '@medplum/fhirtypes';

export const description = 'problem list read in full, MDD recognised by name; entries {patient: "Patient/x", score}';

const names = (c: Condition) => [c.code?.text, ...(c.code?.coding ?? []).map((x) => x.display)].join(' ');
const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.issued ?? '');

export default async function ({ http, submit }: CaseContext): Promise<void> {
  const problems = await http.search<Condition>('Condition', { category: 'problem-list-item', 'clinical-status': 'active', _count: 500 });
  const mdd = problems.filter((c) => /major depress|recurrent major depression|\bMDD\b/i.test(names(c)) && !c.verificationStatus?.coding?.some((x) => x.code === 'entered-in-error' || x.code === 'refuted'));
  const cohort = [...new Set(mdd.map((c) => c.subject!.reference!.replace('Patient/', '')))];
  const patients: { patient: string; score: number }[] = [];
  for (const p of cohort) {
    const scores = await http.search<Observation>('Observation', { patient: p, code: 'http://loinc.org|44261-6' });
    const latest = scores.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined).sort((a, b) => when(b) - when(a))[0];
    if (latest && latest.valueQuantity!.value! >= 10) patients.push({ patient: `Patient/${p}`, score: latest.valueQuantity!.value! });
  }
  await submit(JSON.stringify({ cohort: cohort.length, count: patients.length, patients }));
}
