// Grader: the cohort, each patient's eGFR series and OLS slope are computed from the session (cached per episode).
import type { Condition, Observation } from '@medplum/fhirtypes';
import type { Check, GraderContext } from '../../../harness/types.ts';
import {
  anyOf, codeParam, effectiveTime, fail, fetchedAll, FLOWSHEET, hasValue, ICD10CM, inCodeSet, listedPatients, LOINC, matchNumber, matchOf, noWrites,
  patientListMismatches, perEpisode, problemListCohort, queriedByView, recordedResults, SNOMED, verdict,
} from '../../../graders/lib/index.ts';

const EGFR = [{ system: LOINC, codes: ['33914-3'] }, { system: FLOWSHEET, codes: ['EGFR'] }];
export const EGFR_CODES = codeParam(EGFR);
export const WINDOW_DAYS = 730;
export const RAPID = -5;

export const isCkdStage3 = (c: Condition): boolean =>
  inCodeSet(c.code, [{ system: SNOMED, codes: ['433144002'] }]) || (c.code?.coding ?? []).some((x) => x.system === ICD10CM && /^N18\.3/.test(x.code ?? ''));

/** OLS slope of y on x. */
export function olsSlope(points: [number, number][]): number {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxy / sxx;
}

/** eGFR results (LOINC or the local code) with a value in the window, oldest first. */
export function series(obs: Observation[], now: string): Observation[] {
  return recordedResults(obs, EGFR, { before: now, days: WINDOW_DAYS }).filter(hasValue)
    .sort((a, b) => Date.parse(effectiveTime(a)) - Date.parse(effectiveTime(b)));
}

export const years = (o: Observation) => Date.parse(effectiveTime(o)) / 86400_000 / 365.25;

export interface Member { patient: string; condition: string; results: Observation[]; slope?: number }

export const cohort = perEpisode(async ({ fhir, now }: Pick<GraderContext, 'fhir' | 'now'>): Promise<Member[]> => {
  const members: Member[] = [];
  for (const { patient, conditions } of await problemListCohort(fhir, isCkdStage3)) {
    const results = series(await fhir.search<Observation>('Observation', { patient, code: EGFR_CODES, _count: 1000 }), now);
    const slope = results.length >= 2 ? olsSlope(results.map((o) => [years(o), o.valueQuantity!.value!])) : undefined;
    members.push({ patient, condition: conditions[0], results, ...(slope !== undefined ? { slope } : {}) });
  }
  return members;
});

const withSlope = (m: Member[]) => m.filter((x) => x.slope !== undefined);

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
    const said = listedPatients(ctx.answer, 'rapidProgressors');
    if (!said) return fail(`the answer has no "rapidProgressors" list (expected ${want.join(', ') || 'an empty list'})`);
    return verdict(matchOf(patientListMismatches(want, said), [`slopes: ${slopes(m)}`]));
  },
  read_only: ({ log }) => verdict(noWrites(log)),
};
