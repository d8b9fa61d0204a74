// Grader: the cohort (active major depressive disorder on the problem list, SNOMED CT or ICD-10-CM) and each member's
// latest valid PHQ-9 are computed from the session (cached per episode).
import type { Condition, Observation } from '@medplum/fhirtypes';
import type { Check, GraderContext } from '../../../contracts/task.ts';
import {
  answerField, anyOf, fail, fetchedAll, latestObservation, matchNumber, matchOf, patientListMismatches, perEpisode, problemListCohort,
  queriedByView, verdict,
} from '../../../graders/lib/index.ts';
import { ICD10CM, LOINC, MDD_ICD10, MDD_SNOMED, MODERATE_FROM, PHQ9, SNOMED } from './facts.ts';

const isMdd = (c: Condition): boolean => (c.code?.coding ?? []).some((x) => (x.system === SNOMED && MDD_SNOMED.includes(x.code ?? '')) || (x.system === ICD10CM && MDD_ICD10.test(x.code ?? '')));

export interface Member { patient: string; conditions: string[]; latest?: Observation }

export const registry = perEpisode(async ({ fhir }: Pick<GraderContext, 'fhir'>): Promise<Member[]> => {
  const members: Member[] = [];
  for (const { patient, conditions } of await problemListCohort(fhir, isMdd)) {
    const latest = await latestObservation(fhir, patient, [{ system: LOINC, codes: [PHQ9.code] }]);
    members.push({ patient, conditions, ...(latest ? { latest } : {}) });
  }
  return members;
});

const score = (m: Member) => m.latest?.valueQuantity?.value;
const positives = (r: Member[]) => r.filter((m) => score(m) !== undefined && score(m)! >= MODERATE_FROM);
const summary = (r: Member[]) => r.map((m) => `${m.patient}: ${m.latest ? `${score(m)} (Observation/${m.latest.id})` : 'no PHQ-9'}`).join('; ');

/** The patient ids the answer lists: "Patient/x" or "x" strings, or objects with id / patient / reference. */
function listed(answer: unknown): string[] {
  const list = answerField(answer, 'patients');
  if (!Array.isArray(list)) return [];
  return list.map((x) => (x && typeof x === 'object' ? (x as Record<string, unknown>).id ?? (x as Record<string, unknown>).patient ?? (x as Record<string, unknown>).reference : x))
    .map((x) => String(x ?? '').replace(/^Patient\//, '')).filter(Boolean);
}

/** Each listed patient's score as the answer gives it: `phq9`/`score`/`latest` of an object entry. */
function quoted(answer: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const list = answerField(answer, 'patients');
  if (!Array.isArray(list)) return out;
  for (const item of list) {
    if (!item || typeof item !== 'object') continue;
    const rec = item as Record<string, unknown>;
    const id = String(rec.id ?? rec.patient ?? rec.reference ?? '').replace(/^Patient\//, '');
    if (id) out.set(id, answerField(rec, 'phq9', 'score', 'latestPhq9', 'latest'));
  }
  return out;
}

export const checks: Record<string, Check> = {
  cohort_conditions_fetched: async (ctx) => {
    const r = await registry(ctx);
    if (r.length === 0) return fail('no patient has active MDD on the problem list');
    return verdict(anyOf(fetchedAll(ctx.log, r.map((m) => m.conditions[0]), 'MDD problem-list entry'), queriedByView(ctx.log, 'Condition')));
  },
  latest_phq9_fetched: async (ctx) => {
    const r = await registry(ctx);
    const targets = r.filter((m) => m.latest).map((m) => `Observation/${m.latest!.id}`);
    return verdict(anyOf(fetchedAll(ctx.log, targets, 'latest PHQ-9'), queriedByView(ctx.log, 'Observation', ['44261-6'])));
  },
  cohort_size: async (ctx) => {
    const r = await registry(ctx);
    const m = matchNumber(ctx.answer, { value: r.length, tolerance: { absolute: 0 }, fields: ['cohort', 'cohortSize', 'denominator'] });
    return verdict({ ...m, evidence: [...m.evidence, `cohort: ${r.map((x) => x.patient).join(', ')}`] });
  },
  count_correct: async (ctx) => {
    const want = positives(await registry(ctx)).length;
    const field = answerField(ctx.answer, 'count');
    if (field === undefined) return fail(`the answer has no "count" field (expected ${want})`);
    return verdict(matchNumber({ count: field }, { value: want, tolerance: { absolute: 0 }, fields: ['count'] }));
  },
  patients_listed: async (ctx) => {
    const r = await registry(ctx);
    const want = positives(r).map((m) => m.patient);
    const said = listed(ctx.answer);
    return verdict(matchOf(patientListMismatches(want, said), [`expected ${want.length}: ${want.join(', ')}`, summary(r)]));
  },
  scores_quoted: async (ctx) => {
    const want = positives(await registry(ctx));
    const got = quoted(ctx.answer);
    const mismatches: string[] = [];
    for (const m of want) {
      const said = got.get(m.patient);
      const ok = said !== undefined && matchNumber({ phq9: said }, { value: score(m)!, tolerance: { absolute: 0 }, fields: ['phq9'] }).mismatches.length === 0;
      if (!ok) mismatches.push(`Patient/${m.patient}: expected PHQ-9 ${score(m)} (Observation/${m.latest!.id}), the answer gives ${said === undefined ? '(nothing)' : JSON.stringify(said)}`);
    }
    return verdict(matchOf(mismatches, [`${want.length} scores checked`]));
  },
};
