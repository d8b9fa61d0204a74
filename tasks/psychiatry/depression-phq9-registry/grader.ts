// Grader: the cohort (active MDD on the problem list) and each patient's latest PHQ-9 are computed from the session.
import type { Condition, Observation } from '@medplum/fhirtypes';
import type { Check, GraderContext } from '../../../harness/types.ts';
import { referenceId } from '../../../harness/fhir-client.ts';
import {
  answerField, answerText, effectiveTime, fail, fetchedAll, inCodeSet, matchNumber, matchOf, noWrites, SNOMED, ICD10CM, LOINC, verdict,
} from '../../../graders/lib/index.ts';

export const MDD = [{ system: SNOMED, codes: ['370143000'] }, { system: ICD10CM, codes: ['F33.1'] }];
export const PHQ9 = [{ system: LOINC, codes: ['44261-6'] }];

export interface Registry {
  conditions: Map<string, string[]>;
  latest: Map<string, Observation | undefined>;
}

/** The cohort and each member's latest PHQ-9 (by effective time), from the session's final state. */
export async function registry(fhir: GraderContext['fhir']): Promise<Registry> {
  const found = await fhir.search<Condition>('Condition', { code: 'http://snomed.info/sct|370143000,http://hl7.org/fhir/sid/icd-10-cm|F33.1', 'clinical-status': 'active', category: 'problem-list-item', _count: 1000 });
  const conditions = new Map<string, string[]>();
  for (const c of found) {
    if (!inCodeSet(c.code, MDD) || !c.category?.some((x) => x.coding?.some((y) => y.code === 'problem-list-item'))) continue;
    if (!c.clinicalStatus?.coding?.some((x) => x.code === 'active') || c.verificationStatus?.coding?.some((x) => x.code === 'entered-in-error')) continue;
    const p = referenceId(c.subject?.reference, 'Patient');
    if (p) conditions.set(p, [...(conditions.get(p) ?? []), `Condition/${c.id}`]);
  }
  const latest = new Map<string, Observation | undefined>();
  for (const p of [...conditions.keys()].sort()) {
    const obs = await fhir.search<Observation>('Observation', { patient: p, code: 'http://loinc.org|44261-6', _count: 1000 });
    latest.set(p, obs.filter((o) => inCodeSet(o.code, PHQ9) && o.valueQuantity?.value !== undefined && !['entered-in-error', 'cancelled'].includes(o.status))
      .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)))[0]);
  }
  return { conditions, latest };
}

function positives(r: Registry): string[] {
  return [...r.latest.entries()].filter(([, o]) => (o?.valueQuantity?.value ?? -1) >= 10).map(([p]) => p).sort();
}

/** The patients the answer lists: ids from `patients` (objects or strings), else Patient ids in the text. */
function listed(answer: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const field = answerField(answer, 'patients');
  if (Array.isArray(field)) {
    for (const item of field) {
      if (typeof item === 'string') out.set(item.replace(/^Patient\//, ''), undefined);
      else if (item && typeof item === 'object') {
        const rec = item as Record<string, unknown>;
        const id = String(rec.id ?? rec.patient ?? '').replace(/^Patient\//, '');
        if (id) out.set(id, rec.phq9 ?? rec.PHQ9 ?? rec.score);
      }
    }
    return out;
  }
  for (const m of answerText(answer).matchAll(/Patient\/([A-Za-z0-9\-.]{1,64})/g)) out.set(m[1], undefined);
  return out;
}

export const checks: Record<string, Check> = {
  cohort_conditions_fetched: async ({ fhir, log }) => {
    const r = await registry(fhir);
    if (r.conditions.size === 0) return fail('no patient has active MDD on the problem list');
    return verdict(fetchedAll(log, [...r.conditions.values()].map((ids) => ids[0]), 'MDD problem-list entry'));
  },
  latest_phq9_fetched: async ({ fhir, log }) => {
    const r = await registry(fhir);
    const targets = [...r.latest.values()].filter((o): o is Observation => !!o).map((o) => `Observation/${o.id}`);
    return verdict(fetchedAll(log, targets, 'latest PHQ-9'));
  },
  cohort_size: async ({ fhir, answer }) => {
    const r = await registry(fhir);
    return verdict(matchNumber(answer, { value: r.conditions.size, tolerance: { absolute: 0 }, fields: ['cohort', 'cohortSize', 'denominator'] }));
  },
  count_correct: async ({ fhir, answer }) => {
    const r = await registry(fhir);
    const want = positives(r).length;
    const field = answerField(answer, 'count');
    if (field === undefined) return fail(`the answer has no "count" field (expected ${want})`);
    return verdict(matchNumber({ count: field }, { value: want, tolerance: { absolute: 0 }, fields: ['count'] }));
  },
  patients_listed: async ({ fhir, answer }) => {
    const want = positives(await registry(fhir));
    const got = listed(answer);
    const missing = want.filter((p) => !got.has(p));
    const extra = [...got.keys()].filter((p) => !want.includes(p));
    return verdict(matchOf([...missing.map((p) => `missing Patient/${p}`), ...extra.map((p) => `Patient/${p} listed but latest PHQ-9 is below 10 or not in the cohort`)], [`expected ${want.length}: ${want.join(', ')}`]));
  },
  scores_quoted: async ({ fhir, answer }) => {
    const r = await registry(fhir);
    const got = listed(answer);
    const want = positives(r);
    if (want.length === 0) return got.size === 0 ? verdict(matchOf([], ['no patient above threshold; none listed'])) : fail('patients listed although none has latest PHQ-9 >= 10');
    const mismatches: string[] = [];
    for (const p of want) {
      const value = r.latest.get(p)!.valueQuantity!.value!;
      const said = got.get(p);
      if (typeof said !== 'number' || Math.abs(said - value) > 1e-9) mismatches.push(`Patient/${p}: expected PHQ-9 ${value}, the answer gives ${said === undefined ? '(nothing)' : JSON.stringify(said)}`);
    }
    return verdict(matchOf(mismatches, [`${want.length} scores checked`]));
  },
  read_only: ({ log }) => verdict(noWrites(log)),
};
