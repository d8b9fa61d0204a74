// Grader: the cohort (CKD stage 3 active on the problem list, SNOMED CT or ICD-10-CM), each patient's eGFR series in
// the window and an ordinary least-squares slope per patient, computed from the session (cached per episode). "The
// last two years" is read as 730 days or as two calendar years; each reading is applied to the whole answer.
import type { Condition, Observation } from '@medplum/fhirtypes';
import type { Check, GraderContext } from '../../../contracts/task.ts';
import {
  anyOf, effectiveTime, fail, fetchedAll, hasValue, listedPatients, matchNumber, matchOf, observations, patientListMismatches, perEpisode, problemListCohort,
  queriedByView, verdict, type Match,
} from '../../../graders/lib/index.ts';
import { CKD3_ICD10, CKD3_SNOMED, DAYS_PER_YEAR, EGFR, ICD10CM, MIN_RESULTS, RAPID_BELOW, SNOMED, WINDOW_DAYS } from './facts.ts';

const isCkdStage3 = (c: Condition): boolean => (c.code?.coding ?? []).some((x) => (x.system === SNOMED && CKD3_SNOMED.includes(x.code ?? '')) || (x.system === ICD10CM && CKD3_ICD10.test(x.code ?? '')));

/** OLS slope of y on x. */
function olsSlope(points: [number, number][]): number {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxy / sxx;
}

/** Window lengths in days: 730, and two calendar years back from now when that differs. */
function windows(now: string): number[] {
  const d = new Date(now);
  const calendar = Math.round((d.getTime() - Date.UTC(d.getUTCFullYear() - 2, d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds())) / 86400_000);
  return calendar === WINDOW_DAYS ? [WINDOW_DAYS] : [WINDOW_DAYS, calendar];
}

export interface Member { patient: string; condition: string; results: Observation[]; slope?: number }
export interface Reading { days: number; members: Member[] }

export const readings = perEpisode(async ({ fhir, now }: Pick<GraderContext, 'fhir' | 'now'>): Promise<Reading[]> => {
  const cohort = await problemListCohort(fhir, isCkdStage3);
  const out: Reading[] = [];
  for (const days of windows(now)) {
    const members: Member[] = [];
    for (const { patient, conditions } of cohort) {
      const results = (await observations(fhir, patient, EGFR, { before: now, days })).filter(hasValue).reverse();
      const slope = results.length >= MIN_RESULTS ? olsSlope(results.map((o) => [Date.parse(effectiveTime(o)) / 86400_000 / DAYS_PER_YEAR, o.valueQuantity!.value!])) : undefined;
      members.push({ patient, condition: conditions[0], results, ...(slope !== undefined ? { slope } : {}) });
    }
    out.push({ days, members });
  }
  return out;
});

const withSlope = (m: Member[]) => m.filter((x) => x.slope !== undefined);
const slopes = (m: Member[]) => withSlope(m).map((x) => `${x.patient} ${x.slope!.toFixed(2)} (n=${x.results.length})`).join(', ');
/** The first reading whose match passes, else the first reading's. */
async function anyReading(ctx: Pick<GraderContext, 'fhir' | 'now'>, check: (r: Reading) => Match): Promise<Match> {
  const matches = (await readings(ctx)).map(check);
  return matches.find((m) => m.mismatches.length === 0) ?? matches[0];
}

export const checks: Record<string, Check> = {
  cohort_conditions_fetched: async (ctx) => {
    const m = (await readings(ctx))[0].members;
    if (m.length === 0) return fail('no patient has active CKD stage 3');
    return verdict(anyOf(fetchedAll(ctx.log, m.map((x) => x.condition), 'CKD stage 3 problem-list entry'), queriedByView(ctx.log, 'Condition')));
  },
  egfr_series_fetched: async (ctx) => {
    const m = (await readings(ctx))[0].members;
    const targets = m.flatMap((x) => x.results.map((o) => `Observation/${o.id}`));
    return verdict(anyOf(fetchedAll(ctx.log, targets, 'eGFR result'), queriedByView(ctx.log, 'Observation', ['EGFR'])));
  },
  patient_count: async (ctx) => verdict(await anyReading(ctx, (r) => matchNumber(ctx.answer, { value: withSlope(r.members).length, tolerance: { absolute: 0 }, fields: ['patients'] }))),
  mean_slope: async (ctx) => {
    if (withSlope((await readings(ctx))[0].members).length === 0) return fail('no patient has two eGFR results in the window');
    return verdict(await anyReading(ctx, (r) => {
      const m = withSlope(r.members);
      const mean = m.reduce((s, x) => s + x.slope!, 0) / m.length;
      const match = matchNumber(ctx.answer, { value: mean, tolerance: { absolute: 0.05 }, fields: ['meanSlope'] });
      return { ...match, evidence: [...match.evidence, `${r.days}-day window: mean ${mean.toFixed(3)} over ${slopes(m)}`] };
    }));
  },
  rapid_progressors: async (ctx) => {
    const said = listedPatients(ctx.answer, 'rapidProgressors');
    if (!said) return fail('the answer has no "rapidProgressors" list');
    return verdict(await anyReading(ctx, (r) => {
      const want = withSlope(r.members).filter((x) => x.slope! < RAPID_BELOW).map((x) => x.patient);
      return matchOf(patientListMismatches(want, said), [`${r.days}-day window slopes: ${slopes(r.members)}`]);
    }));
  },
};
