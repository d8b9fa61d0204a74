// Grader: the cohort, each patient's eGFR series and OLS slope are computed from the session (cached per episode).
import type { Condition, Observation } from '@medplum/fhirtypes';
import type { Check, GraderContext } from '../../../harness/types.ts';
import { referenceId } from '../../../harness/fhir-client.ts';
import {
  answerField, anyOf, effectiveTime, fail, fetchedAll, ICD10CM, inCodeSet, LOINC, matchNumber, matchOf, noWrites, queriedByView, SNOMED, verdict,
} from '../../../graders/lib/index.ts';

export const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
export const EGFR_CODES = `${LOINC}|33914-3,${FLOWSHEET}|EGFR`;
const EGFR = [{ system: LOINC, codes: ['33914-3'] }, { system: FLOWSHEET, codes: ['EGFR'] }];
export const WINDOW_DAYS = 730;
export const RAPID = -5;

export const isCkdStage3 = (c: Condition): boolean =>
  inCodeSet(c.code, [{ system: SNOMED, codes: ['433144002'] }]) || (c.code?.coding ?? []).some((x) => x.system === ICD10CM && /^N18\.3/.test(x.code ?? ''));
export const isActiveProblem = (c: Condition): boolean =>
  !!c.category?.some((x) => x.coding?.some((y) => y.code === 'problem-list-item'))
  && !!c.clinicalStatus?.coding?.some((x) => x.code === 'active')
  && !c.verificationStatus?.coding?.some((x) => x.code === 'entered-in-error' || x.code === 'refuted');

/** OLS slope of y on x. */
export function olsSlope(points: [number, number][]): number {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxy / sxx;
}

/** eGFR results in the window, oldest first. */
export function series(obs: Observation[], now: string): Observation[] {
  const to = Date.parse(now);
  const from = to - WINDOW_DAYS * 86400_000;
  return obs.filter((o) => inCodeSet(o.code, EGFR) && !['entered-in-error', 'cancelled'].includes(o.status) && o.valueQuantity?.value !== undefined)
    .filter((o) => { const t = Date.parse(effectiveTime(o)); return t >= from && t <= to; })
    .sort((a, b) => Date.parse(effectiveTime(a)) - Date.parse(effectiveTime(b)));
}

export const years = (o: Observation) => Date.parse(effectiveTime(o)) / 86400_000 / 365.25;

export interface Member { patient: string; condition: string; results: Observation[]; slope?: number }

const cache = new WeakMap<object, Promise<Member[]>>();
export function cohort(ctx: Pick<GraderContext, 'fhir' | 'now'>): Promise<Member[]> {
  let found = cache.get(ctx.fhir);
  if (!found) cache.set(ctx.fhir, (found = compute(ctx)));
  return found;
}

async function compute({ fhir, now }: Pick<GraderContext, 'fhir' | 'now'>): Promise<Member[]> {
  const conditions = await fhir.search<Condition>('Condition', { category: 'problem-list-item', _count: 1000 }, { maxPages: 1000 });
  const byPatient = new Map<string, string>();
  for (const c of conditions.filter((c) => isCkdStage3(c) && isActiveProblem(c))) {
    const p = referenceId(c.subject?.reference, 'Patient');
    if (p && !byPatient.has(p)) byPatient.set(p, `Condition/${c.id}`);
  }
  const members: Member[] = [];
  for (const patient of [...byPatient.keys()].sort()) {
    const results = series(await fhir.search<Observation>('Observation', { patient, code: EGFR_CODES, _count: 1000 }), now);
    const slope = results.length >= 2 ? olsSlope(results.map((o) => [years(o), o.valueQuantity!.value!])) : undefined;
    members.push({ patient, condition: byPatient.get(patient)!, results, ...(slope !== undefined ? { slope } : {}) });
  }
  return members;
}

const withSlope = (m: Member[]) => m.filter((x) => x.slope !== undefined);

function listed(answer: unknown): string[] | undefined {
  const list = answerField(answer, 'rapidProgressors');
  if (!Array.isArray(list)) return undefined;
  return list.map((x) => String(typeof x === 'object' && x ? (x as { reference?: string; id?: string }).reference ?? (x as { id?: string }).id : x))
    .map((s) => referenceId(s, 'Patient') ?? s.replace(/^Patient\//, ''));
}

const slopes = (m: Member[]) => withSlope(m).map((x) => `${x.patient} ${x.slope!.toFixed(2)} (n=${x.results.length})`).join(', ');

export const checks: Record<string, Check> = {
  cohort_conditions_fetched: async (ctx) => {
    const m = await cohort(ctx);
    if (m.length === 0) return fail('no patient has active CKD stage 3');
    return verdict(anyOf(fetchedAll(ctx.log, m.map((x) => x.condition), 'CKD stage 3 problem-list entry'), queriedByView(ctx.log, 'Condition', ['433144002'])));
  },
  egfr_series_fetched: async (ctx) => {
    const m = await cohort(ctx);
    const targets = m.flatMap((x) => x.results.map((o) => `Observation/${o.id}`));
    return verdict(anyOf(fetchedAll(ctx.log, targets, 'eGFR result'), queriedByView(ctx.log, 'Observation', ['33914-3', 'EGFR'])));
  },
  patient_count: async (ctx) => {
    const m = withSlope(await cohort(ctx));
    return verdict(matchNumber(ctx.answer, { value: m.length, tolerance: { absolute: 0 }, fields: ['patients'] }));
  },
  mean_slope: async (ctx) => {
    const m = withSlope(await cohort(ctx));
    if (m.length === 0) return fail('no patient has two eGFR results in the window');
    const mean = m.reduce((s, x) => s + x.slope!, 0) / m.length;
    const r = matchNumber(ctx.answer, { value: mean, tolerance: { absolute: 0.05 }, fields: ['meanSlope'] });
    return verdict({ ...r, evidence: [...r.evidence, `mean ${mean.toFixed(3)} over ${slopes(m)}`] });
  },
  rapid_progressors: async (ctx) => {
    const m = withSlope(await cohort(ctx));
    const want = m.filter((x) => x.slope! < RAPID).map((x) => x.patient);
    const said = listed(ctx.answer);
    if (!said) return fail(`the answer has no "rapidProgressors" list (expected ${want.join(', ') || 'an empty list'})`);
    const missing = want.filter((p) => !said.includes(p));
    const extra = said.filter((p) => !want.includes(p));
    return verdict(matchOf([...missing.map((p) => `missing Patient/${p}`), ...extra.map((p) => `Patient/${p} should not be listed`)], [`slopes: ${slopes(m)}`]));
  },
  read_only: ({ log }) => verdict(noWrites(log)),
};
