// Grader: eligibility and active statin orders are computed from the session (cached per episode).
import type { Condition, MedicationRequest, Patient } from '@medplum/fhirtypes';
import type { Check, GraderContext } from '../../../harness/types.ts';
import { referenceId } from '../../../harness/fhir-client.ts';
import {
  answerField, anyOf, fail, fetchedAll, ICD10CM, inCodeSet, isMedication, matchNumber, matchOf, noWrites, queriedByView, SNOMED, verdict,
} from '../../../graders/lib/index.ts';

/** RxNorm ingredients: atorvastatin, rosuvastatin, simvastatin, pravastatin, lovastatin, fluvastatin, pitavastatin. */
export const STATINS = { ingredients: ['83367', '301542', '36567', '42463', '6472', '41127', '861634'] };
export const STATIN_NAME = /\b(atorva|rosuva|simva|prava|lova|fluva|pitava)statin\b/i;
export const isStatin = (o: MedicationRequest): boolean =>
  isMedication(o.medicationCodeableConcept, STATINS) || STATIN_NAME.test(o.medicationCodeableConcept?.text ?? '');
export const isActiveOrder = (o: MedicationRequest): boolean => o.status === 'active' && ['order', 'original-order', 'instance-order', 'plan'].includes(o.intent);

export const isType2Diabetes = (c: Condition): boolean =>
  inCodeSet(c.code, [{ system: SNOMED, codes: ['44054006'] }]) || (c.code?.coding ?? []).some((x) => x.system === ICD10CM && /^E11(\.|$)/.test(x.code ?? ''));
export const isActiveProblem = (c: Condition): boolean =>
  !!c.category?.some((x) => x.coding?.some((y) => y.code === 'problem-list-item'))
  && !!c.clinicalStatus?.coding?.some((x) => x.code === 'active')
  && !c.verificationStatus?.coding?.some((x) => x.code === 'entered-in-error' || x.code === 'refuted');

export function ageOn(birthDate: string, now: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number);
  const [ny, nm, nd] = now.slice(0, 10).split('-').map(Number);
  return ny - by - (nm < bm || (nm === bm && nd < (bd || 1)) ? 1 : 0);
}
export const eligibleAge = (age: number) => age >= 40 && age <= 75;

export interface Member { patient: string; condition: string; statins: string[] }

const cache = new WeakMap<object, Promise<Member[]>>();
export function cohort(ctx: Pick<GraderContext, 'fhir' | 'now'>): Promise<Member[]> {
  let found = cache.get(ctx.fhir);
  if (!found) cache.set(ctx.fhir, (found = compute(ctx)));
  return found;
}

async function compute({ fhir, now }: Pick<GraderContext, 'fhir' | 'now'>): Promise<Member[]> {
  const conditions = await fhir.search<Condition>('Condition', { category: 'problem-list-item', _count: 1000 }, { maxPages: 1000 });
  const byPatient = new Map<string, string>();
  for (const c of conditions.filter((c) => isType2Diabetes(c) && isActiveProblem(c))) {
    const p = referenceId(c.subject?.reference, 'Patient');
    if (p && !byPatient.has(p)) byPatient.set(p, `Condition/${c.id}`);
  }
  const members: Member[] = [];
  for (const patient of [...byPatient.keys()].sort()) {
    const p = await fhir.read<Patient>('Patient', patient);
    if (!p.birthDate || !eligibleAge(ageOn(p.birthDate, now))) continue;
    const orders = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 });
    members.push({ patient, condition: byPatient.get(patient)!, statins: orders.filter((o) => isActiveOrder(o) && isStatin(o)).map((o) => `MedicationRequest/${o.id}`) });
  }
  return members;
}

function listed(answer: unknown): string[] | undefined {
  const list = answerField(answer, 'withoutStatin');
  if (!Array.isArray(list)) return undefined;
  return list.map((x) => String(typeof x === 'object' && x ? (x as { reference?: string; id?: string }).reference ?? (x as { id?: string }).id : x))
    .map((s) => referenceId(s, 'Patient') ?? s.replace(/^Patient\//, ''));
}

export const checks: Record<string, Check> = {
  cohort_conditions_fetched: async (ctx) => {
    const m = await cohort(ctx);
    if (m.length === 0) return fail('no eligible patient');
    return verdict(anyOf(fetchedAll(ctx.log, m.map((x) => x.condition), 'diabetes problem-list entry'), queriedByView(ctx.log, 'Condition', ['44054006'])));
  },
  statin_orders_fetched: async (ctx) => {
    const m = await cohort(ctx);
    return verdict(anyOf(fetchedAll(ctx.log, m.flatMap((x) => x.statins), 'active statin order'), queriedByView(ctx.log, 'MedicationRequest', ['active'])));
  },
  eligible_count: async (ctx) => {
    const m = await cohort(ctx);
    const r = matchNumber(ctx.answer, { value: m.length, tolerance: { absolute: 0 }, fields: ['eligible'] });
    return verdict({ ...r, evidence: [...r.evidence, `eligible: ${m.map((x) => x.patient).join(', ')}`] });
  },
  on_statin_count: async (ctx) => {
    const m = (await cohort(ctx)).filter((x) => x.statins.length > 0);
    const r = matchNumber(ctx.answer, { value: m.length, tolerance: { absolute: 0 }, fields: ['onStatin'] });
    return verdict({ ...r, evidence: [...r.evidence, `on a statin: ${m.map((x) => `${x.patient} (${x.statins.join(', ')})`).join('; ')}`] });
  },
  gap_listed: async (ctx) => {
    const want = (await cohort(ctx)).filter((x) => x.statins.length === 0).map((x) => x.patient);
    const said = listed(ctx.answer);
    if (!said) return fail(`the answer has no "withoutStatin" list (expected ${want.map((p) => `Patient/${p}`).join(', ') || 'an empty list'})`);
    const missing = want.filter((p) => !said.includes(p));
    const extra = said.filter((p) => !want.includes(p));
    return verdict(matchOf([...missing.map((p) => `missing Patient/${p}`), ...extra.map((p) => `Patient/${p} should not be listed`)], [`expected ${want.length}: ${want.join(', ')}`]));
  },
  read_only: ({ log }) => verdict(noWrites(log)),
};
