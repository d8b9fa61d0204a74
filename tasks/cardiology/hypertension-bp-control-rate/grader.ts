// Grader: the denominator and each member's latest blood pressure are computed from the session (cached per episode).
import type { Condition, Observation, Patient } from '@medplum/fhirtypes';
import type { Check, GraderContext } from '../../../harness/types.ts';
import { referenceId } from '../../../harness/fhir-client.ts';
import {
  answerField, anyOf, effectiveTime, fail, fetchedAll, ICD10CM, inCodeSet, LOINC, matchNumber, matchOf, noWrites, queriedByView, SNOMED, verdict,
} from '../../../graders/lib/index.ts';

export const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
export const BP_CODES = `${LOINC}|85354-9,${FLOWSHEET}|BP`;
const BP = [{ system: LOINC, codes: ['85354-9'] }, { system: FLOWSHEET, codes: ['BP'] }];
export const WINDOW_DAYS = 365;

export const isHypertension = (c: Condition): boolean =>
  inCodeSet(c.code, [{ system: SNOMED, codes: ['59621000'] }, { system: ICD10CM, codes: ['I10'] }]);
export const isActiveProblem = (c: Condition): boolean =>
  !!c.category?.some((x) => x.coding?.some((y) => y.code === 'problem-list-item'))
  && !!c.clinicalStatus?.coding?.some((x) => x.code === 'active')
  && !c.verificationStatus?.coding?.some((x) => x.code === 'entered-in-error' || x.code === 'refuted');

/** Age in whole years on the calendar date of `now` (UTC). */
export function ageOn(birthDate: string, now: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number);
  const [ny, nm, nd] = now.slice(0, 10).split('-').map(Number);
  return ny - by - (nm < bm || (nm === bm && nd < (bd || 1)) ? 1 : 0);
}

/** Systolic and diastolic of a BP panel. */
export function pressures(o: Observation): { sbp?: number; dbp?: number } {
  const comp = (code: string) => o.component?.find((c) => c.code.coding?.some((x) => x.system === LOINC && x.code === code))?.valueQuantity?.value;
  return { sbp: comp('8480-6'), dbp: comp('8462-4') };
}

export interface Member { patient: string; condition: string; latest?: Observation; controlled: boolean }

const cache = new WeakMap<object, Promise<Member[]>>();
export function cohort(ctx: Pick<GraderContext, 'fhir' | 'now'>): Promise<Member[]> {
  let found = cache.get(ctx.fhir);
  if (!found) cache.set(ctx.fhir, (found = compute(ctx)));
  return found;
}

async function compute({ fhir, now }: Pick<GraderContext, 'fhir' | 'now'>): Promise<Member[]> {
  const conditions = await fhir.search<Condition>('Condition', { category: 'problem-list-item', _count: 1000 }, { maxPages: 1000 });
  const byPatient = new Map<string, string>();
  for (const c of conditions.filter((c) => isHypertension(c) && isActiveProblem(c))) {
    const p = referenceId(c.subject?.reference, 'Patient');
    if (p && !byPatient.has(p)) byPatient.set(p, `Condition/${c.id}`);
  }
  const to = Date.parse(now);
  const from = to - WINDOW_DAYS * 86400_000;
  const members: Member[] = [];
  for (const patient of [...byPatient.keys()].sort()) {
    const p = await fhir.read<Patient>('Patient', patient);
    if (!p.birthDate) continue;
    const age = ageOn(p.birthDate, now);
    if (age < 18 || age > 85) continue;
    const obs = await fhir.search<Observation>('Observation', { patient, code: BP_CODES, _count: 1000 });
    const latest = obs.filter((o) => inCodeSet(o.code, BP) && !['entered-in-error', 'cancelled'].includes(o.status))
      .filter((o) => { const { sbp, dbp } = pressures(o); return sbp !== undefined && dbp !== undefined; })
      .filter((o) => { const t = Date.parse(effectiveTime(o)); return t >= from && t <= to; })
      .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)))[0];
    const bp = latest ? pressures(latest) : undefined;
    members.push({ patient, condition: byPatient.get(patient)!, ...(latest ? { latest } : {}), controlled: !!bp && bp.sbp! < 140 && bp.dbp! < 90 });
  }
  return members;
}

function listed(answer: unknown): string[] | undefined {
  const list = answerField(answer, 'uncontrolled');
  if (!Array.isArray(list)) return undefined;
  return list.map((x) => String(typeof x === 'object' && x ? (x as { reference?: string; id?: string }).reference ?? (x as { id?: string }).id : x))
    .map((s) => referenceId(s, 'Patient') ?? s.replace(/^Patient\//, ''));
}

export const checks: Record<string, Check> = {
  cohort_conditions_fetched: async (ctx) => {
    const m = await cohort(ctx);
    if (m.length === 0) return fail('no patient aged 18-85 has active hypertension');
    return verdict(anyOf(fetchedAll(ctx.log, m.map((x) => x.condition), 'hypertension problem-list entry'), queriedByView(ctx.log, 'Condition', ['59621000'])));
  },
  latest_bp_fetched: async (ctx) => {
    const m = await cohort(ctx);
    return verdict(anyOf(fetchedAll(ctx.log, m.filter((x) => x.latest).map((x) => `Observation/${x.latest!.id}`), 'latest BP'), queriedByView(ctx.log, 'Observation', ['85354-9'])));
  },
  denominator: async (ctx) => {
    const m = await cohort(ctx);
    const r = matchNumber(ctx.answer, { value: m.length, tolerance: { absolute: 0 }, fields: ['denominator'] });
    return verdict({ ...r, evidence: [...r.evidence, `denominator: ${m.map((x) => x.patient).join(', ')}`] });
  },
  controlled_count: async (ctx) => {
    const m = await cohort(ctx);
    const good = m.filter((x) => x.controlled);
    const r = matchNumber(ctx.answer, { value: good.length, tolerance: { absolute: 0 }, fields: ['controlled'] });
    return verdict({ ...r, evidence: [...r.evidence, `controlled: ${good.map((x) => `${x.patient} ${pressures(x.latest!).sbp}/${pressures(x.latest!).dbp}`).join(', ')}`] });
  },
  percent_controlled: async (ctx) => {
    const m = await cohort(ctx);
    if (m.length === 0) return fail('empty denominator');
    const pct = Math.round((1000 * m.filter((x) => x.controlled).length) / m.length) / 10;
    return verdict(matchNumber(ctx.answer, { value: pct, unit: '%', tolerance: { absolute: 0.1 }, fields: ['percentControlled'] }));
  },
  uncontrolled_listed: async (ctx) => {
    const want = (await cohort(ctx)).filter((x) => !x.controlled).map((x) => x.patient);
    const said = listed(ctx.answer);
    if (!said) return fail(`the answer has no "uncontrolled" list (expected ${want.length} patients)`);
    const missing = want.filter((p) => !said.includes(p));
    const extra = said.filter((p) => !want.includes(p));
    return verdict(matchOf([...missing.map((p) => `missing Patient/${p}`), ...extra.map((p) => `Patient/${p} should not be listed`)], [`expected ${want.length}: ${want.join(', ')}`]));
  },
  read_only: ({ log }) => verdict(noWrites(log)),
};
