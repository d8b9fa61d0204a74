// Counts 140/90 itself as controlled (<= instead of <).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'controlled at <= 140/90';
export const catches = ['controlled_count', 'uncontrolled_listed'];
const age = (birth: string, now: string) => { const [y, m, d] = birth.split('-').map(Number); const [ny, nm, nd] = now.slice(0, 10).split('-').map(Number); return ny - y - (nm < m || (nm === m && nd < d) ? 1 : 0); };
const part = (o: Observation, code: string) => o.component?.find((c) => c.code.coding?.some((x) => x.code === code))?.valueQuantity?.value;
const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.issued ?? '');
const HTN = (c: Condition) => (c.code?.coding ?? []).some((x) => (x.system === 'http://snomed.info/sct' && x.code === '59621000') || (x.system === 'http://hl7.org/fhir/sid/icd-10-cm' && x.code === 'I10'));

export default async function ({ http, now, submit }: CaseContext): Promise<void> {
  const problems = await http.search<Condition>('Condition', { category: 'problem-list-item', 'clinical-status': 'active', _count: 500 });
  const ids = [...new Set(problems.filter(HTN).map((c) => c.subject!.reference!.split('/')[1]!))].sort();
  const rows: { patient: string; controlled: boolean }[] = [];
  const to = Date.parse(now);
  for (const id of ids) {
    const p = await http.read<Patient>('Patient', id);
    const a = p.birthDate ? age(p.birthDate, now) : -1;
    if (a < 18 || a > 85) continue;
    const panels = await http.search<Observation>('Observation', { patient: id, code: 'http://loinc.org|85354-9,http://ehr-gym.example/fhir/CodeSystem/flowsheet|BP' });
    const latest = panels.filter((o) => o.status !== 'entered-in-error' && when(o) >= to - 365 * 86400_000 && when(o) <= to && part(o, '8480-6') !== undefined && part(o, '8462-4') !== undefined).sort((x, y) => when(y) - when(x))[0];
    rows.push({ patient: id, controlled: !!latest && part(latest, '8480-6')! <= 140 && part(latest, '8462-4')! <= 90 });
  }
  const controlled = rows.filter((r) => r.controlled).length;
  await submit({ denominator: rows.length, controlled, percentControlled: Math.round(1000 * controlled / rows.length) / 10, uncontrolled: rows.filter((r) => !r.controlled).map((r) => `Patient/${r.patient}`) });
}
