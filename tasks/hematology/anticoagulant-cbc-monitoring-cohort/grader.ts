// Grader: the cohort (patients with an active oral anticoagulant order, recognised by any RxNorm code, brand or free
// text through graders/lib) and those of them with no hemoglobin in the 182 days before now, from the session.
import type { MedicationRequest } from '@medplum/fhirtypes';
import type { Check, GraderContext } from '../../../contracts/task.ts';
import { referenceId } from '../../../contracts/fhir-client.ts';
import { anyOf, fail, fetchedAll, ingredientNamesOf, listedPatients, matchNumber, matchOf, observations, patientListMismatches, perEpisode, queriedByView, verdict } from '../../../graders/lib/index.ts';
import { HEMOGLOBIN, ORAL_ANTICOAGULANTS, WINDOW_DAYS } from './facts.ts';

const isOralAnticoagulant = (o: MedicationRequest) => ingredientNamesOf(o.medicationCodeableConcept).some((n) => ORAL_ANTICOAGULANTS.includes(n));

export interface Cohort { orders: string[]; patients: string[]; gaps: string[] }

export const cohort = perEpisode(async ({ fhir, now }: Pick<GraderContext, 'fhir' | 'now'>): Promise<Cohort> => {
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { status: 'active', _count: 1000 }, { maxPages: 1000 });
  const orders = active.filter((o) => o.status === 'active' && isOralAnticoagulant(o));
  const patients = [...new Set(orders.map((o) => referenceId(o.subject?.reference, 'Patient')).filter((id): id is string => !!id))].sort();
  const gaps: string[] = [];
  for (const patient of patients) {
    const recent = await observations(fhir, patient, HEMOGLOBIN, { before: now, days: WINDOW_DAYS });
    if (!recent.some((o) => o.valueQuantity?.value !== undefined)) gaps.push(patient);
  }
  return { orders: orders.map((o) => `MedicationRequest/${o.id}`), patients, gaps };
});

export const checks: Record<string, Check> = {
  searched_anticoagulant_orders: async (ctx) => {
    const c = await cohort(ctx);
    return verdict(anyOf(fetchedAll(ctx.log, c.orders, 'active anticoagulant order'), queriedByView(ctx.log, 'MedicationRequest')));
  },
  cohort_count: async (ctx) => {
    const c = await cohort(ctx);
    const m = matchNumber(ctx.answer, { value: c.patients.length, tolerance: { absolute: 0 }, fields: ['anticoagulated'], near: ['anticoagulated'] });
    return verdict({ ...m, evidence: [...m.evidence, `cohort: ${c.patients.join(', ')}`] });
  },
  gap_count: async (ctx) => {
    const c = await cohort(ctx);
    const m = matchNumber(ctx.answer, { value: c.gaps.length, tolerance: { absolute: 0 }, fields: ['withoutHemoglobin6mo', 'withoutHemoglobin'], near: ['without'] });
    return verdict({ ...m, evidence: [...m.evidence, `no hemoglobin in ${WINDOW_DAYS} days: ${c.gaps.join(', ') || 'none'}`] });
  },
  gap_patients: async (ctx) => {
    const c = await cohort(ctx);
    const said = listedPatients(ctx.answer, 'patients', 'patientIds', 'withoutHemoglobinPatients');
    if (!said) return fail(`the answer has no "patients" list (expected ${c.gaps.map((p) => `Patient/${p}`).join(', ') || 'an empty list'})`);
    return verdict(matchOf(patientListMismatches(c.gaps, [...new Set(said)]), [`expected ${c.gaps.length}: ${c.gaps.join(', ')}`]));
  },
};
