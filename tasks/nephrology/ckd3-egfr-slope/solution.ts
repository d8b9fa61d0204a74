// Reference solutions. REST (default): the whole active problem list filtered to CKD stage 3 (SNOMED CT or ICD-10-CM),
// then each patient's eGFR series (LOINC and the local code) in the 730 days up to now and a least-squares slope per
// patient from the normal equations. Views (alternativeSolutions.views): Condition and eGFR SQL on FHIR views run with
// ViewDefinition/$run, slopes computed here.
import type { Condition, Observation } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { referenceId } from '../../../contracts/fhir-client.ts';
import { runView, viewDefinition as view } from '../../../graders/lib/index.ts';
import { CKD3_ICD10, CKD3_SNOMED, DAYS_PER_YEAR, EGFR, ICD10CM, MIN_RESULTS, RAPID_BELOW, SNOMED, WINDOW_DAYS } from './facts.ts';

const stage3 = (system?: string | null, code?: string | null) => (system === SNOMED && CKD3_SNOMED.includes(code ?? '')) || (system === ICD10CM && CKD3_ICD10.test(code ?? ''));
const onProblemList = (c: Condition) => !!c.category?.some((x) => x.coding?.some((y) => y.code === 'problem-list-item'))
  && !!c.clinicalStatus?.coding?.some((x) => x.code === 'active')
  && !c.verificationStatus?.coding?.some((x) => x.code === 'entered-in-error' || x.code === 'refuted');
const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.effectivePeriod?.start ?? o.effectiveInstant ?? o.issued ?? '');
const EGFR_PARAM = EGFR.flatMap((s) => s.codes.map((c) => `${s.system}|${c}`)).join(',');

/** Least-squares slope from the normal equations: (n Sxy - Sx Sy) / (n Sxx - Sx^2), x in years. */
function slopePerYear(points: { t: number; value: number }[]): number {
  const n = points.length;
  const xs = points.map((p) => p.t / 86400_000 / DAYS_PER_YEAR);
  const sx = xs.reduce((a, b) => a + b, 0);
  const sy = points.reduce((a, p) => a + p.value, 0);
  const sxy = points.reduce((a, p, i) => a + xs[i] * p.value, 0);
  const sxx = xs.reduce((a, x) => a + x * x, 0);
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

function answer(rows: { patient: string; slope: number }[]): string {
  const mean = rows.reduce((s, r) => s + r.slope, 0) / rows.length;
  return JSON.stringify({
    patients: rows.length, meanSlope: Math.round(mean * 100) / 100,
    rapidProgressors: rows.filter((r) => r.slope < RAPID_BELOW).map((r) => `Patient/${r.patient}`),
    slopes: rows.map((r) => ({ patient: r.patient, slope: Math.round(r.slope * 100) / 100 })),
  });
}

export default async function solution({ fhir, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Practitioner', task.requester.reference.split('/')[1]);
  const problems = await fhir.search<Condition>('Condition', { category: 'problem-list-item', 'clinical-status': 'active', _count: 500 }, { maxPages: 1000 });
  const ids = [...new Set(problems.filter((c) => onProblemList(c) && (c.code?.coding ?? []).some((x) => stage3(x.system, x.code)))
    .map((c) => referenceId(c.subject?.reference, 'Patient')).filter((p): p is string => !!p))].sort();
  const to = Date.parse(now);
  const from = to - WINDOW_DAYS * 86400_000;
  const rows: { patient: string; slope: number }[] = [];
  for (const patient of ids) {
    const results = await fhir.search<Observation>('Observation', { patient, code: EGFR_PARAM, _sort: 'date', _count: 200 });
    const points = results.filter((o) => o.status !== 'entered-in-error' && o.status !== 'cancelled' && o.valueQuantity?.value !== undefined && when(o) >= from && when(o) <= to)
      .map((o) => ({ t: when(o), value: o.valueQuantity!.value! }));
    if (points.length >= MIN_RESULTS) rows.push({ patient, slope: slopePerYear(points) });
  }
  await finish(answer(rows));
}

export const alternativeSolutions = {
  views: async ({ fhir, now, task, finish }: SolutionContext): Promise<void> => {
    await fhir.read('Practitioner', task.requester.reference.split('/')[1]);
    const base = view('ckd3', 'Condition', [['patient', 'subject.getReferenceKey(Patient)']], [
      "category.coding.where(code = 'problem-list-item').exists()",
      "clinicalStatus.coding.where(code = 'active').exists()",
      "verificationStatus.coding.where(code = 'entered-in-error' or code = 'refuted').empty()",
    ]);
    const ckd3 = await runView<{ patient: string; system: string | null; code: string | null }>(fhir, {
      ...base, select: [...base.select, { forEach: 'code.coding', column: [{ name: 'system', path: 'system' }, { name: 'code', path: 'code' }] }],
    });
    const codes = EGFR.map((s) => `(system = '${s.system}' and (${s.codes.map((c) => `code = '${c}'`).join(' or ')}))`).join(' or ');
    const egfr = await runView<{ patient: string; value: number; effective: string }>(fhir, view('egfr', 'Observation', [['patient', 'subject.getReferenceKey(Patient)'], ['value', 'value.ofType(Quantity).value', 'decimal'], ['effective', 'effective.ofType(dateTime)']], [
      `code.coding.where(${codes}).exists()`,
      "status != 'entered-in-error' and status != 'cancelled'",
      'value.ofType(Quantity).value.exists()',
    ]));
    const cohort = new Set(ckd3.filter((c) => stage3(c.system, c.code)).map((c) => c.patient));
    const to = Date.parse(now);
    const from = to - WINDOW_DAYS * 86400_000;
    const points = new Map<string, { t: number; value: number }[]>();
    for (const r of egfr) {
      const t = Date.parse(r.effective);
      if (!cohort.has(r.patient) || t < from || t > to) continue;
      points.set(r.patient, [...(points.get(r.patient) ?? []), { t, value: r.value }]);
    }
    const rows = [...points.entries()].filter(([, p]) => p.length >= MIN_RESULTS).sort(([a], [b]) => (a < b ? -1 : 1)).map(([patient, p]) => ({ patient, slope: slopePerYear(p) }));
    await finish(answer(rows));
  },
};
