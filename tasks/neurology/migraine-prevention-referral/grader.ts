// Grader: the preventive must be one the AHS 2021 consensus supports, at a usual starting daily dose, and safe for
// this chart (asthma, pregnancy, age/sex, current beta-blockers and SSRIs, allergies - all read from the session);
// plus a neurology referral that carries its reason. Drugs are recognised by ingredient from any code, brand or text.
import type { AllergyIntolerance, Condition, MedicationRequest, Patient, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, GraderContext } from '../../../contracts/task.ts';
import { orderAsNeeded,
  answerText, classesOfOrder, createdResources, dailyMg, describeConcept, drugIngredientNames, fail, fetchedAll, findReferral, inCodeSet, ingredientNamesOf,
  label, matchOf, verdict,
} from '../../../graders/lib/index.ts';
import {
  ASTHMA, AVOID_IN_PREGNANCY, BETA_BLOCKER_CLASS, CHILDBEARING_AGE_LIMIT, EXTRA_BETA_BLOCKERS, NEUROLOGY, NEUROLOGY_WORDS, PREGNANCY, PREVENTIVES,
  SEROTONERGIC_PREVENTIVES, SSRI_CLASS, TRIPTAN_CLASS, VALPROATE,
} from './facts.ts';

const ingredientsOf = (o: MedicationRequest) => ingredientNamesOf(o.medicationCodeableConcept);
const isBetaBlocker = (o: MedicationRequest) => classesOfOrder(o).includes(BETA_BLOCKER_CLASS) || ingredientsOf(o).some((i) => EXTRA_BETA_BLOCKERS.includes(i));
const preventiveOf = (o: MedicationRequest) => PREVENTIVES.find((p) => ingredientsOf(o).includes(p.ingredient));

const IN_FORCE = ['active', 'draft', 'on-hold'];
const newOrders = (ctx: GraderContext) => createdResources<MedicationRequest>(ctx.changes, 'MedicationRequest').filter((o) => IN_FORCE.includes(o.status));

async function activeProblems(ctx: GraderContext): Promise<Condition[]> {
  const all = await ctx.fhir.search<Condition>('Condition', { patient: ctx.patient, 'clinical-status': 'active', _count: 1000 });
  return all.filter((c) => c.clinicalStatus?.coding?.some((x) => x.code === 'active') && c.category?.some((x) => x.coding?.some((y) => y.code === 'problem-list-item')));
}

export const checks: Record<string, Check> = {
  reviewed_acute_therapy: async ({ fhir, patient, log }) => {
    const orders = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active', _count: 1000 }))
      .filter((o) => o.status === 'active' && classesOfOrder(o).includes(TRIPTAN_CLASS));
    if (orders.length === 0) return fail('no active triptan order (binding error)');
    return verdict(fetchedAll(log, orders.map((o) => `MedicationRequest/${o.id}`), 'triptan order'));
  },
  reviewed_problem_list: async (ctx) => {
    const problems = await activeProblems(ctx);
    return verdict(fetchedAll(ctx.log, problems.map((c) => `Condition/${c.id}`), 'active problem'));
  },
  preventive_ordered: (ctx) => {
    const orders = newOrders(ctx).filter((o) => o.subject?.reference === `Patient/${ctx.patient}`);
    if (orders.length === 0) return fail('no new active MedicationRequest was written');
    const seen: string[] = [];
    for (const o of orders) {
      const p = preventiveOf(o);
      const perDay = dailyMg(o);
      seen.push(`${label(o)}: ${describeConcept(o.medicationCodeableConcept)}, ${perDay ?? '?'} mg/day, ${orderAsNeeded(o) ? 'PRN' : 'scheduled'}`);
      if (!p || orderAsNeeded(o)) continue;
      if (!p.perDay) return verdict(matchOf([], [`${p.ingredient} (${p.evidence})`, ...seen]));
      if (perDay !== undefined && perDay >= p.perDay[0] && perDay <= p.perDay[1]) return verdict(matchOf([], [`${p.ingredient} ${perDay} mg/day (${p.evidence})`, ...seen]));
    }
    return verdict(matchOf([`no new order is a guideline preventive, scheduled, at a usual starting dose (${PREVENTIVES.filter((p) => p.perDay).map((p) => `${p.ingredient} ${p.perDay![0]}-${p.perDay![1]} mg/day`).join(', ')}; CGRP antibodies)`], seen));
  },
  preventive_safe_for_patient: async (ctx) => {
    const orders = newOrders(ctx);
    const problems = await activeProblems(ctx);
    const patient = await ctx.fhir.read<Patient>('Patient', ctx.patient);
    const age = patient.birthDate ? (Date.parse(ctx.now) - Date.parse(patient.birthDate)) / (365.25 * 86400_000) : 99;
    const asthma = problems.some((c) => inCodeSet(c.code, ASTHMA));
    const pregnant = problems.some((c) => inCodeSet(c.code, PREGNANCY));
    const active = (await ctx.fhir.search<MedicationRequest>('MedicationRequest', { patient: ctx.patient, status: 'active', _count: 1000 }))
      .filter((o) => o.status === 'active' && !orders.some((n) => n.id === o.id));
    const onBeta = active.some(isBetaBlocker);
    const onSsri = active.some((o) => classesOfOrder(o).includes(SSRI_CLASS));
    const onTriptan = active.some((o) => classesOfOrder(o).includes(TRIPTAN_CLASS));
    const allergies = (await ctx.fhir.search<AllergyIntolerance>('AllergyIntolerance', { patient: ctx.patient }))
      .filter((a) => a.clinicalStatus?.coding?.some((c) => c.code === 'active'))
      .map((a) => ({ what: describeConcept(a.code), ingredients: drugIngredientNames(a.code) }));
    const mismatches: string[] = [];
    for (const o of orders) {
      const name = `${label(o)} (${describeConcept(o.medicationCodeableConcept)})`;
      const ingredients = ingredientsOf(o);
      if (isBetaBlocker(o) && asthma) mismatches.push(`${name}: beta-blocker with active asthma`);
      if (isBetaBlocker(o) && onBeta) mismatches.push(`${name}: a second beta-blocker`);
      if (pregnant && ingredients.some((i) => AVOID_IN_PREGNANCY.includes(i))) mismatches.push(`${name}: avoided in pregnancy`);
      if (ingredients.includes(VALPROATE) && patient.gender === 'female' && age < CHILDBEARING_AGE_LIMIT) mismatches.push(`${name}: valproate in a woman of childbearing potential`);
      if (onSsri && ingredients.some((i) => SEROTONERGIC_PREVENTIVES.includes(i))) mismatches.push(`${name}: venlafaxine on top of an SSRI (serotonin toxicity)`);
      if (onTriptan && classesOfOrder(o).includes(TRIPTAN_CLASS)) mismatches.push(`${name}: a second triptan (the acute therapy is already prescribed)`);
      for (const a of allergies) if (a.ingredients.some((i) => ingredients.includes(i))) mismatches.push(`${name}: on the allergy list (${a.what})`);
    }
    return verdict(matchOf(mismatches, [`asthma ${asthma}, pregnant ${pregnant}, ${patient.gender} ${Math.floor(age)} y, beta-blocker ${onBeta}, SSRI ${onSsri}, ${orders.length} new orders`]));
  },
  neurology_referral: ({ patient, changes }) => {
    const referrals = createdResources<ServiceRequest>(changes, 'ServiceRequest');
    const m = findReferral(referrals, { patient, specialty: NEUROLOGY, specialtyWords: NEUROLOGY_WORDS, status: ['active', 'draft'] });
    if (!m.ok) return verdict(m);
    // The clinic triages on the reason: a coded or written reason (or a reference to the migraine) must travel with it.
    const withReason = referrals.filter((r) => (r.reasonCode?.length || r.reasonReference?.length || r.note?.some((n) => n.text?.trim())));
    return verdict(matchOf(withReason.length ? [] : ['the referral carries no reason (reasonCode, reasonReference or note)'], m.evidence));
  },
  answer_names_preventive: (ctx) => {
    const ordered = newOrders(ctx).map(preventiveOf).filter((p): p is (typeof PREVENTIVES)[number] => !!p);
    if (ordered.length === 0) return fail('no preventive was ordered, so the answer cannot name it');
    const named = drugIngredientNames({ text: answerText(ctx.answer) });
    const hit = ordered.find((p) => named.includes(p.ingredient));
    return hit ? verdict(matchOf([], [`answer names ${hit.ingredient}`])) : fail(`the answer does not name the ordered preventive (${ordered.map((p) => p.ingredient).join(', ')}); it names ${named.join(', ') || 'no drug'}`);
  },
};
