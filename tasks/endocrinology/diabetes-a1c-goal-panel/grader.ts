// Grader: the cohort and each member's latest A1c are computed from the session (REST reads, cached per episode).
import type { Condition, Observation, Patient } from '@medplum/fhirtypes';
import type { Check, GraderContext } from '../../../harness/types.ts';
import { referenceId } from '../../../harness/fhir-client.ts';
import {
  answerField, anyOf, effectiveTime, fail, fetchedAll, ICD10CM, inCodeSet, LOINC, matchNumber, matchOf, noWrites, queriedByView, SNOMED, verdict,
} from '../../../graders/lib/index.ts';

export const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
export const A1C_CODES = `${LOINC}|4548-4,${FLOWSHEET}|A1C`;
const A1C = [{ system: LOINC, codes: ['4548-4'] }, { system: FLOWSHEET, codes: ['A1C'] }];
export const WINDOW_DAYS = 365;
export const GOAL = 7.0;
export const HIGH = 8.0;

export const isType2Diabetes = (c: Condition): boolean =>
  inCodeSet(c.code, [{ system: SNOMED, codes: ['44054006'] }]) || (c.code?.coding ?? []).some((x) => x.system === ICD10CM && /^E11(\.|$)/.test(x.code ?? ''));
export const isActiveProblem = (c: Condition): boolean =>
  !!c.category?.some((x) => x.coding?.some((y) => y.code === 'problem-list-item'))
  && !!c.clinicalStatus?.coding?.some((x) => x.code === 'active')
  && !c.verificationStatus?.coding?.some((x) => x.code === 'entered-in-error' || x.code === 'refuted');

export interface Member { patient: string; conditions: string[]; latest?: Observation }
export interface Cohort { members: Member[]; atGoal: string[]; high: string[] }

const cache = new WeakMap<object, Promise<Cohort>>();

export function cohort(ctx: Pick<GraderContext, 'fhir' | 'now' | 'task'>): Promise<Cohort> {
  let found = cache.get(ctx.fhir);
  if (!found) cache.set(ctx.fhir, (found = compute(ctx)));
  return found;
}

async function compute({ fhir, now, task }: Pick<GraderContext, 'fhir' | 'now' | 'task'>): Promise<Cohort> {
  const pcp = task.requester.reference;
  const panel = new Set((await fhir.search<Patient>('Patient', { 'general-practitioner': pcp, _count: 1000 }))
    .filter((p) => p.generalPractitioner?.some((g) => g.reference === pcp)).map((p) => p.id!));
  const conditions = await fhir.search<Condition>('Condition', { category: 'problem-list-item', _count: 1000 }, { maxPages: 1000 });
  const byPatient = new Map<string, string[]>();
  for (const c of conditions.filter((c) => isType2Diabetes(c) && isActiveProblem(c))) {
    const p = referenceId(c.subject?.reference, 'Patient');
    if (p && panel.has(p)) byPatient.set(p, [...(byPatient.get(p) ?? []), `Condition/${c.id}`]);
  }
  const to = Date.parse(now);
  const from = to - WINDOW_DAYS * 86400_000;
  const members: Member[] = [];
  for (const patient of [...byPatient.keys()].sort()) {
    const obs = await fhir.search<Observation>('Observation', { patient, code: A1C_CODES, _count: 1000 });
    const latest = obs.filter((o) => inCodeSet(o.code, A1C) && !['entered-in-error', 'cancelled'].includes(o.status) && o.valueQuantity?.value !== undefined)
      .filter((o) => { const t = Date.parse(effectiveTime(o)); return t >= from && t <= to; })
      .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)))[0];
    members.push({ patient, conditions: byPatient.get(patient)!, ...(latest ? { latest } : {}) });
  }
  const value = (m: Member) => m.latest?.valueQuantity?.value;
  return {
    members,
    atGoal: members.filter((m) => value(m) !== undefined && value(m)! < GOAL).map((m) => m.patient),
    high: members.filter((m) => value(m) !== undefined && value(m)! >= HIGH).map((m) => m.patient),
  };
}

function listed(answer: unknown): string[] | undefined {
  const list = answerField(answer, 'a1c8OrAbove', 'patients');
  if (!Array.isArray(list)) return undefined;
  return list.map((x) => String(typeof x === 'object' && x ? (x as { reference?: string; id?: string }).reference ?? (x as { id?: string }).id : x))
    .map((s) => referenceId(s, 'Patient') ?? s.replace(/^Patient\//, ''));
}

const summary = (c: Cohort) => c.members.map((m) => `${m.patient}: ${m.latest ? `${m.latest.valueQuantity!.value}% (${effectiveTime(m.latest).slice(0, 10)}, Observation/${m.latest.id})` : 'no A1c in window'}`).join('; ');

export const checks: Record<string, Check> = {
  cohort_conditions_fetched: async (ctx) => {
    const c = await cohort(ctx);
    if (c.members.length === 0) return fail('the panel has no patient with active type 2 diabetes');
    return verdict(anyOf(fetchedAll(ctx.log, c.members.map((m) => m.conditions[0]), 'diabetes problem-list entry'), queriedByView(ctx.log, 'Condition', ['44054006'])));
  },
  latest_a1c_fetched: async (ctx) => {
    const c = await cohort(ctx);
    const targets = c.members.filter((m) => m.latest).map((m) => `Observation/${m.latest!.id}`);
    return verdict(anyOf(fetchedAll(ctx.log, targets, 'latest A1c'), queriedByView(ctx.log, 'Observation', ['4548-4', 'A1C'])));
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
    const pct = Math.round((1000 * c.atGoal.length) / c.members.length) / 10;
    return verdict(matchNumber(ctx.answer, { value: pct, unit: '%', tolerance: { absolute: 0.1 }, fields: ['percentAtGoal'] }));
  },
  a1c_8_or_above_listed: async (ctx) => {
    const c = await cohort(ctx);
    const said = listed(ctx.answer);
    if (!said) return fail(`the answer has no "a1c8OrAbove" list (expected ${c.high.map((p) => `Patient/${p}`).join(', ') || 'an empty list'})`);
    const missing = c.high.filter((p) => !said.includes(p));
    const extra = said.filter((p) => !c.high.includes(p));
    return verdict(matchOf([...missing.map((p) => `missing Patient/${p}`), ...extra.map((p) => `Patient/${p} should not be listed`)], [`expected ${c.high.length}: ${c.high.join(', ') || 'none'}`, summary(c)]));
  },
  read_only: ({ log }) => verdict(noWrites(log)),
};
