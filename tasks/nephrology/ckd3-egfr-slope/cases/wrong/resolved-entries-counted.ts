// Ignores the clinical status: a stage 3 entry resolved when the patient progressed to stage 4 still counts.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, Observation } from '@medplum/fhirtypes';

export const description = 'resolved stage 3 entries counted';
export const catches = ['patient_count', 'mean_slope'];
const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.issued ?? '');
const STAGE3 = (c: Condition) => (c.code?.coding ?? []).some((x) => (x.system === 'http://snomed.info/sct' && ['433144002', '700378005', '700379002'].includes(x.code ?? '')) || (x.system === 'http://hl7.org/fhir/sid/icd-10-cm' && /^N18\.3/.test(x.code ?? '')));

function slope(points: [number, number][]): number {
  const mx = points.reduce((s, [x]) => s + x, 0) / points.length;
  const my = points.reduce((s, [, y]) => s + y, 0) / points.length;
  return points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0) / points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
}

export default async function ({ http, now, submit }: CaseContext): Promise<void> {
  const problems = await http.search<Condition>('Condition', { category: 'problem-list-item', _count: 500 });
  const cohort = [...new Set(problems.filter(STAGE3).map((c) => c.subject!.reference!.split('/')[1]!))].sort();
  const to = Date.parse(now);
  const rows: { patient: string; slope: number }[] = [];
  for (const p of cohort) {
    const results = await http.search<Observation>('Observation', { patient: p, code: 'http://loinc.org|33914-3,http://loinc.org|62238-1,http://loinc.org|98979-8,http://ehr-gym.example/fhir/CodeSystem/flowsheet|EGFR' });
    const points = results.filter((o) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error' && when(o) <= to && when(o) >= to - 730 * 86400_000)
      .map((o): [number, number] => [when(o) / 86400_000 / 365.25, o.valueQuantity!.value!]);
    if (points.length >= 2) rows.push({ patient: p, slope: slope(points) });
  }
  const mean = rows.reduce((s, r) => s + r.slope, 0) / rows.length;
  await submit({ patients: rows.length, meanSlope: Math.round(mean * 100) / 100, rapidProgressors: rows.filter((r) => r.slope < -5).map((r) => `Patient/${r.patient}`) });
}
