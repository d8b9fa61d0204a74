// Grader: the cohort (the requester's panel with type 2 diabetes active on the problem list, SNOMED CT or ICD-10-CM)
// and each member's latest valid A1c in the window (LOINC or the local code) are computed from the session (cached).
import type { Observation, Patient } from '@medplum/fhirtypes';
import type { Check, GraderContext } from '../../../contracts/task.ts';
import {
  anyOf, effectiveTime, fail, fetchedAll, isType2Diabetes, latestObservation, listedPatients, matchNumber, matchOf, patientListMismatches, percentOf,
  perEpisode, problemListCohort, queriedByView, verdict,
} from '../../../graders/lib/index.ts';
import { A1C, GOAL_BELOW as GOAL, HIGH_FROM as HIGH, WINDOW_DAYS } from './facts.ts';

export interface Member { patient: string; conditions: string[]; latest?: Observation }
export interface Cohort { members: Member[]; atGoal: string[]; high: string[] }

export const cohort = perEpisode(async ({ fhir, now, task }: Pick<GraderContext, 'fhir' | 'now' | 'task'>): Promise<Cohort> => {
  const pcp = task.requester.reference;
  const panel = new Set((await fhir.search<Patient>('Patient', { 'general-practitioner': pcp, _count: 1000 }))
    .filter((p) => p.generalPractitioner?.some((g) => g.reference === pcp)).map((p) => p.id!));
  const members: Member[] = [];
  for (const { patient, conditions } of (await problemListCohort(fhir, isType2Diabetes)).filter((m) => panel.has(m.patient))) {
    const latest = await latestObservation(fhir, patient, A1C, { before: now, days: WINDOW_DAYS });
    members.push({ patient, conditions, ...(latest ? { latest } : {}) });
  }
  const value = (m: Member) => m.latest?.valueQuantity?.value;
  return {
    members,
    atGoal: members.filter((m) => value(m) !== undefined && value(m)! < GOAL).map((m) => m.patient),
    high: members.filter((m) => value(m) !== undefined && value(m)! >= HIGH).map((m) => m.patient),
  };
});

const summary = (c: Cohort) => c.members.map((m) => `${m.patient}: ${m.latest ? `${m.latest.valueQuantity!.value}% (${effectiveTime(m.latest).slice(0, 10)}, Observation/${m.latest.id})` : 'no A1c in window'}`).join('; ');

export const checks: Record<string, Check> = {
  cohort_conditions_fetched: async (ctx) => {
    const c = await cohort(ctx);
    if (c.members.length === 0) return fail('the panel has no patient with active type 2 diabetes');
    return verdict(anyOf(fetchedAll(ctx.log, c.members.map((m) => m.conditions[0]), 'diabetes problem-list entry'), queriedByView(ctx.log, 'Condition')));
  },
  latest_a1c_fetched: async (ctx) => {
    const c = await cohort(ctx);
    const targets = c.members.filter((m) => m.latest).map((m) => `Observation/${m.latest!.id}`);
    return verdict(anyOf(fetchedAll(ctx.log, targets, 'latest A1c'), queriedByView(ctx.log, 'Observation', ['A1C'])));
  },
  cohort_size: async (ctx) => {
    const c = await cohort(ctx);
    const m = matchNumber(ctx.answer, { value: c.members.length, tolerance: { absolute: 0 }, fields: ['cohort'] });
    return verdict({ ...m, evidence: [...m.evidence, `cohort: ${c.members.map((x) => x.patient).join(', ')}`] });
  },
  at_goal_count: async (ctx) => {
    const c = await cohort(ctx);
    const m = matchNumber(ctx.answer, { value: c.atGoal.length, tolerance: { absolute: 0 }, fields: ['atGoal'] });
    return verdict({ ...m, evidence: [...m.evidence, `at goal: ${c.atGoal.join(', ') || 'none'}`, summary(c)] });
  },
  percent_at_goal: async (ctx) => {
    const c = await cohort(ctx);
    if (c.members.length === 0) return fail('empty cohort');
    const pct = percentOf(c.atGoal.length, c.members.length);
    return verdict(matchNumber(ctx.answer, { value: pct, unit: '%', tolerance: { absolute: 0.1 }, fields: ['percentAtGoal'] }));
  },
  a1c_8_or_above_listed: async (ctx) => {
    const c = await cohort(ctx);
    const said = listedPatients(ctx.answer, 'a1c8OrAbove', 'patients');
    if (!said) return fail(`the answer has no "a1c8OrAbove" list (expected ${c.high.map((p) => `Patient/${p}`).join(', ') || 'an empty list'})`);
    return verdict(matchOf(patientListMismatches(c.high, said), [`expected ${c.high.length}: ${c.high.join(', ') || 'none'}`, summary(c)]));
  },
};
