// Grader: eligibility and active statin orders are computed from the session (cached per episode).
import type { MedicationRequest, Patient } from '@medplum/fhirtypes';
import type { Check, GraderContext } from '../../../harness/types.ts';
import {
  agedBetween, anyOf, fail, fetchedAll, isMedication, isType2Diabetes, listedPatients, matchNumber, matchOf, noWrites, patientListMismatches, perEpisode,
  problemListCohort, queriedByView, verdict,
} from '../../../graders/lib/index.ts';

/** RxNorm ingredients: atorvastatin, rosuvastatin, simvastatin, pravastatin, lovastatin, fluvastatin, pitavastatin. */
export const STATINS = { ingredients: ['83367', '301542', '36567', '42463', '6472', '41127', '861634'] };
export const STATIN_NAME = /\b(atorva|rosuva|simva|prava|lova|fluva|pitava)statin\b/i;
export const isStatin = (o: MedicationRequest): boolean =>
  isMedication(o.medicationCodeableConcept, STATINS) || STATIN_NAME.test(o.medicationCodeableConcept?.text ?? '');
export const isActiveOrder = (o: MedicationRequest): boolean => o.status === 'active' && ['order', 'original-order', 'instance-order', 'plan'].includes(o.intent);

export const MIN_AGE = 40;
export const MAX_AGE = 75;

export interface Member { patient: string; condition: string; statins: string[] }

export const cohort = perEpisode(async ({ fhir, now }: Pick<GraderContext, 'fhir' | 'now'>): Promise<Member[]> => {
  const members: Member[] = [];
  for (const { patient, conditions } of await problemListCohort(fhir, isType2Diabetes)) {
    if (!agedBetween(await fhir.read<Patient>('Patient', patient), now, MIN_AGE, MAX_AGE)) continue;
    const orders = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 });
    members.push({ patient, condition: conditions[0], statins: orders.filter((o) => isActiveOrder(o) && isStatin(o)).map((o) => `MedicationRequest/${o.id}`) });
  }
  return members;
});

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
    const said = listedPatients(ctx.answer, 'withoutStatin');
    if (!said) return fail(`the answer has no "withoutStatin" list (expected ${want.map((p) => `Patient/${p}`).join(', ') || 'an empty list'})`);
    return verdict(matchOf(patientListMismatches(want, said), [`expected ${want.length}: ${want.join(', ')}`]));
  },
  read_only: ({ log }) => verdict(noWrites(log)),
};
