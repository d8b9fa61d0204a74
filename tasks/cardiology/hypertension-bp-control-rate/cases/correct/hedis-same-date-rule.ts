// Applies the HEDIS CBP representative-BP rule: on the latest date with a reading, the lowest systolic and the lowest
// diastolic of that date; searches the problem list by both codes.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'HEDIS representative BP (lowest systolic and diastolic of the latest date); code search in both systems';

const age = (birth: string, now: string) => { const [y, m, d] = birth.split('-').map(Number); const [ny, nm, nd] = now.slice(0, 10).split('-').map(Number); return ny - y - (nm < m || (nm === m && nd < d) ? 1 : 0); };
const part = (o: Observation, code: string) => o.component?.find((c) => c.code.coding?.some((x) => x.code === code))?.valueQuantity?.value;

export default async function ({ http, now, submit }: CaseContext): Promise<void> {
  const found = await http.search<Condition>('Condition', { code: 'http://snomed.info/sct|59621000,http://hl7.org/fhir/sid/icd-10-cm|I10', category: 'problem-list-item', 'clinical-status': 'active', _count: 200 });
  const ids = [...new Set(found.map((c) => c.subject!.reference!.split('/')[1]!))].sort();
  const since = new Date(Date.parse(now) - 365 * 86400_000).toISOString();
  const rows: { id: string; ok: boolean }[] = [];
  for (const id of ids) {
    const p = await http.read<Patient>('Patient', id);
    if (!p.birthDate || age(p.birthDate, now) < 18 || age(p.birthDate, now) > 85) continue;
    const panels = (await http.search<Observation>('Observation', { patient: id, code: 'http://loinc.org|85354-9,http://ehr-gym.example/fhir/CodeSystem/flowsheet|BP', date: `ge${since}`, _sort: '-date' }))
      .filter((o) => o.status !== 'entered-in-error' && Date.parse(o.effectiveDateTime!) <= Date.parse(now) && part(o, '8480-6') !== undefined && part(o, '8462-4') !== undefined);
    if (!panels.length) { rows.push({ id, ok: false }); continue; }
    const day = panels.map((o) => o.effectiveDateTime!).sort((a, b) => Date.parse(b) - Date.parse(a))[0]!.slice(0, 10);
    const thatDay = panels.filter((o) => o.effectiveDateTime!.slice(0, 10) === day);
    rows.push({ id, ok: Math.min(...thatDay.map((o) => part(o, '8480-6')!)) < 140 && Math.min(...thatDay.map((o) => part(o, '8462-4')!)) < 90 });
  }
  const controlled = rows.filter((r) => r.ok).length;
  await submit(JSON.stringify({ denominator: rows.length, controlled, percentControlled: Math.round(1000 * controlled / rows.length) / 10, uncontrolled: rows.filter((r) => !r.ok).map((r) => `Patient/${r.id}`) }));
}
