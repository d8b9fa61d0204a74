// Grader: the denominator and each member's control status are computed from the session (cached per episode). Two
// faithful readings of "most recent blood pressure" are accepted as a whole: the latest panel, or HEDIS's lowest
// systolic and lowest diastolic of the latest date; they differ only when one date holds several panels.
import type { Condition, Observation, Patient } from '@medplum/fhirtypes';
import type { Check, GraderContext } from '../../../contracts/task.ts';
import {
  agedBetween, anyOf, effectiveTime, fail, fetchedAll, inCodeSet, listedPatients, matchNumber, matchOf, observations, patientListMismatches, percentOf,
  perEpisode, problemListCohort, queriedByView, verdict, type Match,
} from '../../../graders/lib/index.ts';
import { BP_PANEL, DIASTOLIC, DIASTOLIC_BELOW, HYPERTENSION, LOINC, MAX_AGE, MIN_AGE, SYSTOLIC, SYSTOLIC_BELOW, WINDOW_DAYS } from './facts.ts';

const isHypertension = (c: Condition): boolean => inCodeSet(c.code, HYPERTENSION);
const component = (o: Observation, code: string) => o.component?.find((c) => c.code.coding?.some((x) => x.system === LOINC && x.code === code))?.valueQuantity?.value;
const bothPressures = (o: Observation) => component(o, SYSTOLIC) !== undefined && component(o, DIASTOLIC) !== undefined;
const below = (sbp: number, dbp: number) => sbp < SYSTOLIC_BELOW && dbp < DIASTOLIC_BELOW;

export interface Member { patient: string; condition: string; latest?: Observation; bp?: string; controlled: boolean; controlledHedis: boolean }

export const cohort = perEpisode(async ({ fhir, now }: Pick<GraderContext, 'fhir' | 'now'>): Promise<Member[]> => {
  const members: Member[] = [];
  for (const { patient, conditions } of await problemListCohort(fhir, isHypertension)) {
    if (!agedBetween(await fhir.read<Patient>('Patient', patient), now, MIN_AGE, MAX_AGE)) continue;
    const panels = (await observations(fhir, patient, BP_PANEL, { before: now, days: WINDOW_DAYS })).filter(bothPressures);
    const latest = panels[0];
    if (!latest) { members.push({ patient, condition: conditions[0], controlled: false, controlledHedis: false }); continue; }
    const day = effectiveTime(latest).slice(0, 10);
    const sameDay = panels.filter((o) => effectiveTime(o).slice(0, 10) === day);
    members.push({
      patient, condition: conditions[0], latest, bp: `${component(latest, SYSTOLIC)}/${component(latest, DIASTOLIC)}`,
      controlled: below(component(latest, SYSTOLIC)!, component(latest, DIASTOLIC)!),
      controlledHedis: below(Math.min(...sameDay.map((o) => component(o, SYSTOLIC)!)), Math.min(...sameDay.map((o) => component(o, DIASTOLIC)!))),
    });
  }
  return members;
});

/** The accepted readings: controlled patient ids by the latest panel and by the HEDIS same-date rule (once if equal). */
function readings(m: Member[]): string[][] {
  const latest = m.filter((x) => x.controlled).map((x) => x.patient);
  const hedis = m.filter((x) => x.controlledHedis).map((x) => x.patient);
  return latest.join() === hedis.join() ? [latest] : [latest, hedis];
}
const firstPassing = (matches: Match[]): Match => matches.find((x) => x.mismatches.length === 0) ?? matches[0];

export const checks: Record<string, Check> = {
  cohort_conditions_fetched: async (ctx) => {
    const m = await cohort(ctx);
    if (m.length === 0) return fail('no patient aged 18-85 has active hypertension');
    return verdict(anyOf(fetchedAll(ctx.log, m.map((x) => x.condition), 'hypertension problem-list entry'), queriedByView(ctx.log, 'Condition')));
  },
  latest_bp_fetched: async (ctx) => {
    const m = await cohort(ctx);
    return verdict(anyOf(fetchedAll(ctx.log, m.filter((x) => x.latest).map((x) => `Observation/${x.latest!.id}`), 'latest BP'), queriedByView(ctx.log, 'Observation')));
  },
  denominator: async (ctx) => {
    const m = await cohort(ctx);
    const r = matchNumber(ctx.answer, { value: m.length, tolerance: { absolute: 0 }, fields: ['denominator'] });
    return verdict({ ...r, evidence: [...r.evidence, `denominator: ${m.map((x) => x.patient).join(', ')}`] });
  },
  controlled_count: async (ctx) => {
    const m = await cohort(ctx);
    const r = firstPassing(readings(m).map((good) => matchNumber(ctx.answer, { value: good.length, tolerance: { absolute: 0 }, fields: ['controlled'] })));
    return verdict({ ...r, evidence: [...r.evidence, `controlled: ${m.filter((x) => x.controlled).map((x) => `${x.patient} ${x.bp}`).join(', ')}`] });
  },
  percent_controlled: async (ctx) => {
    const m = await cohort(ctx);
    if (m.length === 0) return fail('empty denominator');
    return verdict(firstPassing(readings(m).map((good) => matchNumber(ctx.answer, { value: percentOf(good.length, m.length), unit: '%', tolerance: { absolute: 0.1 }, fields: ['percentControlled'] }))));
  },
  uncontrolled_listed: async (ctx) => {
    const m = await cohort(ctx);
    const said = listedPatients(ctx.answer, 'uncontrolled');
    if (!said) return fail('the answer has no "uncontrolled" list');
    return verdict(firstPassing(readings(m).map((good) => {
      const want = m.map((x) => x.patient).filter((p) => !good.includes(p));
      return matchOf(patientListMismatches(want, said), [`expected ${want.length}: ${want.join(', ')}`]);
    })));
  },
};
