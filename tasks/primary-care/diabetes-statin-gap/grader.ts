// Grader: eligibility (age 40-75 on today's date, type 2 diabetes active on the problem list) and active statin orders
// (any code, brand, combination product or free text, through graders/lib/drug-classes) computed from the session.
import type { MedicationRequest, Patient } from '@medplum/fhirtypes';
import type { Check, GraderContext } from '../../../contracts/task.ts';
import {
  agedBetween, anyOf, fail, fetchedAll, isType2Diabetes, listedPatients, matchNumber, matchOf, orderInClass, patientListMismatches, perEpisode,
  problemListCohort, queriedByView, verdict,
} from '../../../graders/lib/index.ts';
import { ACTIVE_STATUS, MAX_AGE, MIN_AGE, ORDER_INTENTS, STATIN_CLASS } from './facts.ts';

const isActiveStatin = (o: MedicationRequest): boolean => o.status === ACTIVE_STATUS && ORDER_INTENTS.includes(o.intent) && orderInClass(o, STATIN_CLASS);

export interface Member { patient: string; condition: string; statins: string[] }

export const cohort = perEpisode(async ({ fhir, now }: Pick<GraderContext, 'fhir' | 'now'>): Promise<Member[]> => {
  const members: Member[] = [];
  for (const { patient, conditions } of await problemListCohort(fhir, isType2Diabetes)) {
    if (!agedBetween(await fhir.read<Patient>('Patient', patient), now, MIN_AGE, MAX_AGE)) continue;
    const orders = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 });
    members.push({ patient, condition: conditions[0], statins: orders.filter(isActiveStatin).map((o) => `MedicationRequest/${o.id}`) });
  }
  return members;
});

export const checks: Record<string, Check> = {
  cohort_conditions_fetched: async (ctx) => {
    const m = await cohort(ctx);
    if (m.length === 0) return fail('no eligible patient');
    return verdict(anyOf(fetchedAll(ctx.log, m.map((x) => x.condition), 'diabetes problem-list entry'), queriedByView(ctx.log, 'Condition')));
  },
  statin_orders_fetched: async (ctx) => {
    const m = await cohort(ctx);
    return verdict(anyOf(fetchedAll(ctx.log, m.flatMap((x) => x.statins), 'active statin order'), queriedByView(ctx.log, 'MedicationRequest')));
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
};
