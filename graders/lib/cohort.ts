// Population (cohort) tasks: who is in the denominator and what the answer lists. Shared by the graders, which
// compute the expected cohort from the session, and the reference solutions, which must reach the same cohort.
import type { Condition, Patient } from '@medplum/fhirtypes';
import { referenceId, type FhirClient } from '../../contracts/fhir-client.ts';
import { answerField } from './answers.ts';
import { ICD10CM, inCodeSet, SNOMED } from './codings.ts';

/** The seed's local (non-LOINC) flowsheet code system: some results are coded only with it. */
export const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

/** Age in whole years on the calendar date of `now` (UTC); a birthDate without a day counts as the 1st. */
export function ageOn(birthDate: string, now: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number);
  const [ny, nm, nd] = now.slice(0, 10).split('-').map(Number);
  return ny - by - (nm < bm || (nm === bm && nd < (bd || 1)) ? 1 : 0);
}

/** True when the patient has a birthDate and is `min`..`max` years old (inclusive) on `now`. */
export function agedBetween(patient: Patient, now: string, min: number, max: number): boolean {
  if (!patient.birthDate) return false;
  const age = ageOn(patient.birthDate, now);
  return age >= min && age <= max;
}

/** A problem-list entry that counts: category problem-list-item, clinicalStatus active, not entered-in-error or refuted. */
export function isActiveProblem(c: Condition): boolean {
  return !!c.category?.some((x) => x.coding?.some((y) => y.code === 'problem-list-item'))
    && !!c.clinicalStatus?.coding?.some((x) => x.code === 'active')
    && !c.verificationStatus?.coding?.some((x) => x.code === 'entered-in-error' || x.code === 'refuted');
}

/** The same rule as `isActiveProblem`, as SQL on FHIR ViewDefinition `where` paths over Condition. */
export const ACTIVE_PROBLEM_WHERE = [
  "category.coding.where(code = 'problem-list-item').exists()",
  "clinicalStatus.coding.where(code = 'active').exists()",
  "verificationStatus.coding.where(code = 'entered-in-error' or code = 'refuted').empty()",
];

/** Type 2 diabetes: SNOMED 44054006, or ICD-10-CM E11 and any of its children (E11.9, E11.65, ...). */
export function isType2Diabetes(c: Condition): boolean {
  return inCodeSet(c.code, [{ system: SNOMED, codes: ['44054006'] }]) || (c.code?.coding ?? []).some((x) => x.system === ICD10CM && /^E11(\.|$)/.test(x.code ?? ''));
}

/** Type 2 diabetes as a ViewDefinition `where` path over Condition (the same codes as `isType2Diabetes`). */
export const TYPE2_DIABETES_WHERE = "code.coding.where((system = 'http://snomed.info/sct' and code = '44054006') or (system = 'http://hl7.org/fhir/sid/icd-10-cm' and code.startsWith('E11'))).exists()";

export interface ProblemListMember {
  patient: string;
  /** `Condition/<id>` of each matching active problem, in search order. */
  conditions: string[];
}

/**
 * Every patient with an active problem-list entry matching `matches`, sorted by patient id. Reads the whole problem
 * list (all pages) and filters client-side, so a coding the server search would miss (an ICD-10 child code, a
 * Condition without SNOMED) still counts.
 */
export async function problemListCohort(fhir: FhirClient, matches: (c: Condition) => boolean): Promise<ProblemListMember[]> {
  const conditions = await fhir.search<Condition>('Condition', { category: 'problem-list-item', _count: 1000 }, { maxPages: 1000 });
  const byPatient = new Map<string, string[]>();
  for (const c of conditions.filter((c) => matches(c) && isActiveProblem(c))) {
    const p = referenceId(c.subject?.reference, 'Patient');
    if (p) byPatient.set(p, [...(byPatient.get(p) ?? []), `Condition/${c.id}`]);
  }
  return [...byPatient.keys()].sort().map((patient) => ({ patient, conditions: byPatient.get(patient)! }));
}

/**
 * Memoises a cohort per episode (keyed by the session's FHIR client), so the checks of one episode share one
 * computation and each episode gets its own.
 */
export function perEpisode<C extends { fhir: object }, T>(compute: (ctx: C) => Promise<T>): (ctx: C) => Promise<T> {
  const cache = new WeakMap<object, Promise<T>>();
  return (ctx) => {
    let found = cache.get(ctx.fhir);
    if (!found) cache.set(ctx.fhir, (found = compute(ctx)));
    return found;
  };
}

/** `n` of `total` as a percentage rounded to one decimal place. */
export const percentOf = (n: number, total: number): number => Math.round((1000 * n) / total) / 10;

/**
 * The patient ids an answer lists under one of `fields` ("Patient/x", "x", or {reference} / {id} objects);
 * undefined when no such list is present.
 */
export function listedPatients(answer: unknown, ...fields: string[]): string[] | undefined {
  const list = answerField(answer, ...fields);
  if (!Array.isArray(list)) return undefined;
  return list.map((x) => String(typeof x === 'object' && x ? (x as { reference?: string; id?: string }).reference ?? (x as { id?: string }).id : x))
    .map((s) => referenceId(s, 'Patient') ?? s.replace(/^Patient\//, ''));
}

/** Mismatches between the patients expected in a list and those said: every missing one and every extra one. */
export function patientListMismatches(want: string[], said: string[]): string[] {
  const missing = want.filter((p) => !said.includes(p));
  const extra = said.filter((p) => !want.includes(p));
  return [...missing.map((p) => `missing Patient/${p}`), ...extra.map((p) => `Patient/${p} should not be listed`)];
}
