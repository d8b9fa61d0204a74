// Grader: the denominator and each member's latest blood pressure are computed from the session (cached per episode).
import type { Condition, Observation, Patient } from '@medplum/fhirtypes';
import type { Check, GraderContext } from '../../../harness/types.ts';
import {
  agedBetween, anyOf, codeParam, fail, fetchedAll, FLOWSHEET, ICD10CM, inCodeSet, latestObservation, listedPatients, LOINC, matchNumber, matchOf,
  noWrites, patientListMismatches, percentOf, perEpisode, problemListCohort, queriedByView, SNOMED, verdict,
} from '../../../graders/lib/index.ts';

export const BP = [{ system: LOINC, codes: ['85354-9'] }, { system: FLOWSHEET, codes: ['BP'] }];
export const BP_CODES = codeParam(BP);
export const WINDOW_DAYS = 365;
export const MIN_AGE = 18;
export const MAX_AGE = 85;

export const isHypertension = (c: Condition): boolean =>
  inCodeSet(c.code, [{ system: SNOMED, codes: ['59621000'] }, { system: ICD10CM, codes: ['I10'] }]);

/** Systolic and diastolic of a BP panel. */
export function pressures(o: Observation): { sbp?: number; dbp?: number } {
  const comp = (code: string) => o.component?.find((c) => c.code.coding?.some((x) => x.system === LOINC && x.code === code))?.valueQuantity?.value;
  return { sbp: comp('8480-6'), dbp: comp('8462-4') };
}
/** A panel with both pressures recorded. */
export const hasBothPressures = (o: Observation): boolean => { const { sbp, dbp } = pressures(o); return sbp !== undefined && dbp !== undefined; };
/** Controlled: the latest panel below 140/90; no reading in the window counts as not controlled. */
export const isControlled = (latest: Observation | undefined): boolean => { const bp = latest ? pressures(latest) : undefined; return !!bp && bp.sbp! < 140 && bp.dbp! < 90; };

export interface Member { patient: string; condition: string; latest?: Observation; controlled: boolean }

export const cohort = perEpisode(async ({ fhir, now }: Pick<GraderContext, 'fhir' | 'now'>): Promise<Member[]> => {
  const members: Member[] = [];
  for (const { patient, conditions } of await problemListCohort(fhir, isHypertension)) {
    if (!agedBetween(await fhir.read<Patient>('Patient', patient), now, MIN_AGE, MAX_AGE)) continue;
    const latest = await latestObservation(fhir, patient, BP, { before: now, days: WINDOW_DAYS, usable: hasBothPressures });
    members.push({ patient, condition: conditions[0], ...(latest ? { latest } : {}), controlled: isControlled(latest) });
  }
  return members;
});

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
    const pct = percentOf(m.filter((x) => x.controlled).length, m.length);
    return verdict(matchNumber(ctx.answer, { value: pct, unit: '%', tolerance: { absolute: 0.1 }, fields: ['percentControlled'] }));
  },
  uncontrolled_listed: async (ctx) => {
    const want = (await cohort(ctx)).filter((x) => !x.controlled).map((x) => x.patient);
    const said = listedPatients(ctx.answer, 'uncontrolled');
    if (!said) return fail(`the answer has no "uncontrolled" list (expected ${want.length} patients)`);
    return verdict(matchOf(patientListMismatches(want, said), [`expected ${want.length}: ${want.join(', ')}`]));
  },
  read_only: ({ log }) => verdict(noWrites(log)),
};
