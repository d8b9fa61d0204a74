// Grader: a positive pregnancy test makes the medication list a teratogen review. Each order active at the start is
// classified from facts.ts (stop, continue and refer, or keep); a stopped drug whose indication remains (hypertension,
// a VTE in its treatment year) must be replaced by a pregnancy-compatible drug at a dose this file reads from the
// chart (weight for LMWH); folic acid must be on board at the dose the risk calls for. Orders, referral and note are
// judged against that.
import type { Condition, MedicationRequest, Observation, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../contracts/task.ts';
import {
  allOf, changeOf, conceptIs, createdResources, dailyDose, fail, fetchedAll, findEpisodeNote, fetchedActiveOrders, findReferral, inCodeSet, label, latestObservation,
  matchOf, matchRecommendation, medicationOrderStates, namesInTextFor, noteText, orderRoute, orderTimesPerDay, quantityOf, verdict, type Match,
} from '../../../graders/lib/index.ts';
import { ingredientNamesOf } from '../../../graders/lib/drug-classes.ts';
import {
  FOLIC_ACID, ANTIHYPERTENSIVES, AVOID_NEW, BODY_WEIGHT, CONTINUE_AND_REFER, FOLIC_ACID_MG, HYPERTENSION, LMWH, PREGNANCY_TEST, PRENATAL_VITAMIN, STOP, VTE,
  VTE_TREATMENT_DAYS, WEIGHT_DOSE_TOLERANCE,
} from './facts.ts';

const DAY = 86_400_000;
const is = (o: MedicationRequest, ids: string[]) => ids.some((id) => conceptIs(o.medicationCodeableConcept, id));
const inForce = (o: MedicationRequest) => ['active', 'draft', 'on-hold'].includes(o.status);
const drugText = (o: MedicationRequest) => [o.medicationCodeableConcept?.text, ...(o.medicationCodeableConcept?.coding ?? []).map((c) => c.display)].filter(Boolean).join(' ');

interface Review {
  stop: MedicationRequest[];
  refer: { order: MedicationRequest; specialty: string }[];
  keep: MedicationRequest[];
  needs: ('antihypertensive' | 'lmwh')[];
  weightKg?: number;
  folate: number[];
  hcg: Observation;
}

async function review(ctx: Pick<GraderContext, 'fhir' | 'patient' | 'now' | 'changes'>): Promise<Review | undefined> {
  const hcg = await latestObservation(ctx.fhir, ctx.patient, PREGNANCY_TEST, { usable: (o) => (o.valueCodeableConcept?.coding ?? []).some((c) => c.code === '10828004') });
  if (!hcg) return undefined;
  const start = (await medicationOrderStates(ctx)).atStart;
  const conditions = await ctx.fhir.search<Condition>('Condition', { patient: ctx.patient, _count: 500 });
  const stop = start.filter((o) => is(o, STOP));
  const refer = start.flatMap((o) => CONTINUE_AND_REFER.filter((r) => is(o, [r.drug])).map((r) => ({ order: o, specialty: r.specialty })));
  const keep = start.filter((o) => !stop.includes(o) && !refer.some((r) => r.order === o));
  const needs: Review['needs'] = [];
  if (stop.some((o) => is(o, ['ace-inhibitor', 'arb', 'arni', 'renin-inhibitor'])) && conditions.some((c) => inCodeSet(c.code, HYPERTENSION))) needs.push('antihypertensive');
  const recentVte = conditions.some((c) => inCodeSet(c.code, VTE) && Date.parse(ctx.now) - Date.parse(c.onsetDateTime ?? c.recordedDate ?? '') <= VTE_TREATMENT_DAYS * DAY);
  if (stop.some((o) => is(o, ['warfarin'])) && recentVte) needs.push('lmwh');
  const weightKg = quantityOf(await latestObservation(ctx.fhir, ctx.patient, BODY_WEIGHT))?.value;
  if (needs.includes('lmwh') && weightKg === undefined) return undefined;
  return { stop, refer, keep, needs, weightKg, folate: refer.length ? FOLIC_ACID_MG.antiseizure : FOLIC_ACID_MG.standard, hcg };
}

export async function select(ctx: SelectContext): Promise<boolean> {
  return (await review({ ...ctx, changes: [] })) !== undefined;
}

async function reviewed(ctx: GraderContext): Promise<Review | CheckResult> {
  return (await review(ctx)) ?? fail('no positive pregnancy test, or no weight for a weight-based dose (binding error)');
}
const isResult = (x: Review | CheckResult): x is CheckResult => 'pass' in x;

function teratogens(ctx: GraderContext, r: Review, atEnd: MedicationRequest[]): Match {
  const mismatches: string[] = [];
  const evidence: string[] = [];
  const active = (o: MedicationRequest) => atEnd.some((e) => e.id === o.id);
  for (const o of r.stop) {
    if (changeOf(ctx.changes, 'MedicationRequest', o.id!)?.action === 'deleted') mismatches.push(`${label(o)} (${drugText(o)}) was deleted instead of stopped`);
    else if (active(o)) mismatches.push(`${label(o)} (${drugText(o)}) is contraindicated in pregnancy and still active`);
    else evidence.push(`${drugText(o)} stopped`);
  }
  for (const { order } of r.refer) {
    if (!active(order)) mismatches.push(`${label(order)} (${drugText(order)}) was stopped abruptly: an antiseizure drug is changed by neurology, not withdrawn`);
    else evidence.push(`${drugText(order)} continued pending neurology`);
  }
  for (const o of r.keep) if (!active(o)) mismatches.push(`${label(o)} (${drugText(o)}) is compatible with pregnancy but was stopped`);
  return matchOf(mismatches, evidence);
}

function inRange(v: number | undefined, [lo, hi]: number[]): boolean {
  return v !== undefined && v >= lo - 1e-9 && v <= hi + 1e-9;
}

/** The folic acid on board at the end: folic acid orders by dose, or a prenatal vitamin written as text. */
function folate(r: Review, atEnd: MedicationRequest[]): Match {
  const orders = atEnd.filter((o) => ingredientNamesOf(o.medicationCodeableConcept).includes(FOLIC_ACID) || PRENATAL_VITAMIN.test(drugText(o)));
  if (orders.length === 0) return matchOf([`no folic acid at the end (expected ${r.folate.join('-')} mg a day)`]);
  let total = 0;
  for (const o of orders) {
    const mg = ingredientNamesOf(o.medicationCodeableConcept).includes(FOLIC_ACID) ? dailyDose(o, 'mg', { ingredients: [FOLIC_ACID] }) : undefined;
    if (mg === undefined && !PRENATAL_VITAMIN.test(drugText(o))) return matchOf([`${label(o)} (${drugText(o)}): the folic acid dose cannot be read`]);
    total += mg ?? 0.8;
  }
  return inRange(total, r.folate) ? matchOf([], [`folic acid ${total} mg/day (${orders.map(label).join(', ')})`])
    : matchOf([`folic acid ${total} mg/day, expected ${r.folate.join('-')} mg/day`]);
}

function replacement(r: Review, created: MedicationRequest[], need: Review['needs'][number]): Match {
  const fresh = created.filter(inForce);
  if (need === 'antihypertensive') {
    for (const option of ANTIHYPERTENSIVES) {
      const o = fresh.find((x) => is(x, [option.drug]));
      if (!o) continue;
      const mg = dailyDose(o, 'mg');
      const n = orderTimesPerDay(o);
      if (inRange(mg, option.mgPerDay) && (n === undefined || inRange(n, option.timesPerDay))) return matchOf([], [`${label(o)}: ${option.drug} ${mg} mg/day`]);
      return matchOf([`${label(o)}: ${option.drug} ${mg ?? '(unreadable)'} mg/day in ${n ?? '?'} doses, expected ${option.mgPerDay.join('-')} mg/day in ${option.timesPerDay.join('-')} doses`]);
    }
    return matchOf(['chronic hypertension with the ACE inhibitor/ARB stopped, but no labetalol, nifedipine or methyldopa was started']);
  }
  for (const option of LMWH) {
    const o = fresh.find((x) => is(x, [option.drug]));
    if (!o) continue;
    const n = orderTimesPerDay(o);
    const perDose = n ? (dailyDose(o, option.unit) ?? NaN) / n : NaN;
    const target = n ? option.perKgPerDose[n] * r.weightKg! : undefined;
    const routes = orderRoute(o).routes;
    if (target !== undefined && Math.abs(perDose - target) <= WEIGHT_DOSE_TOLERANCE * target && (routes.length === 0 || routes.includes('subcutaneous'))) {
      return matchOf([], [`${label(o)}: ${option.drug} ${perDose} ${option.unit} x${n}/day for ${r.weightKg} kg`]);
    }
    return matchOf([`${label(o)}: ${option.drug} ${Number.isNaN(perDose) ? '(unreadable)' : perDose} ${option.unit} x${n ?? '?'}/day; therapeutic for ${r.weightKg} kg is ${option.perKgPerDose[2] * r.weightKg!} twice daily or ${option.perKgPerDose[1] * r.weightKg!} once daily (±${WEIGHT_DOSE_TOLERANCE * 100}%)`]);
  }
  return matchOf(['warfarin stopped with a VTE in its treatment year, but no therapeutic LMWH (enoxaparin, dalteparin) was started']);
}

export const checks: Record<string, Check> = {
  reviewed_medications: async (ctx) => verdict(await fetchedActiveOrders(ctx)),
  reviewed_pregnancy_context: async (ctx) => {
    const r = await reviewed(ctx);
    if (isResult(r)) return r;
    const weight = r.needs.includes('lmwh') ? [await latestObservation(ctx.fhir, ctx.patient, BODY_WEIGHT)] : [];
    return verdict(fetchedAll(ctx.log, [r.hcg, ...weight].filter((o): o is Observation => !!o).map((o) => `Observation/${o.id}`), 'pregnancy test or weight'));
  },
  teratogen_plan: async (ctx) => {
    const r = await reviewed(ctx);
    if (isResult(r)) return r;
    return verdict(teratogens(ctx, r, (await medicationOrderStates(ctx)).atEnd));
  },
  pregnancy_orders: async (ctx) => {
    const r = await reviewed(ctx);
    if (isResult(r)) return r;
    const states = await medicationOrderStates(ctx);
    const services = createdResources<ServiceRequest>(ctx.changes, 'ServiceRequest').filter((s) => s.status === 'active');
    const referrals = r.refer.map(({ specialty }) => findReferral(services, {
      patient: ctx.patient, specialty: [{ system: 'http://snomed.info/sct', codes: ['394591006'] }], specialtyWords: [specialty, 'epilep', 'neurolog'], status: ['active'],
    }));
    return verdict(allOf(folate(r, states.atEnd), ...r.needs.map((n) => replacement(r, states.created, n)), ...referrals));
  },
  no_unsafe_additions: async (ctx) => {
    const r = await reviewed(ctx);
    if (isResult(r)) return r;
    const states = await medicationOrderStates(ctx);
    const unsafe = states.created.filter((o) => inForce(o) && is(o, AVOID_NEW)).map((o) => `${label(o)} (${drugText(o)}) is not to be started in pregnancy`);
    const folates = states.atEnd.filter((o) => ingredientNamesOf(o.medicationCodeableConcept).includes(FOLIC_ACID) || PRENATAL_VITAMIN.test(drugText(o)));
    const dup = folates.length > 2 ? [`${folates.length} folic acid/prenatal vitamin orders active`] : [];
    return verdict(matchOf([...unsafe, ...dup], [`${states.created.length} new orders checked`]));
  },
  medication_review_note: async (ctx) => {
    const r = await reviewed(ctx);
    if (isResult(r)) return r;
    const found = findEpisodeNote(ctx.changes, ctx.patient, { minLength: 60 });
    if (!found.ok || !found.candidate) return verdict(found);
    const text = noteText(found.candidate);
    const mismatches: string[] = [];
    for (const o of r.stop) {
      const names = namesInTextFor(text, ingredientNamesOf(o.medicationCodeableConcept));
      const m = matchRecommendation(text, { subject: names, expected: 'against' });
      if (!m.ok) mismatches.push(`about ${ingredientNamesOf(o.medicationCodeableConcept).join('/')}: ${m.mismatches[0]}`);
    }
    for (const { order, specialty } of r.refer) {
      const names = namesInTextFor(text, ingredientNamesOf(order.medicationCodeableConcept));
      if (!names.some((n) => text.toLowerCase().includes(n.toLowerCase()))) mismatches.push(`does not name ${drugText(order)}`);
      if (!new RegExp(specialty.slice(0, 6), 'i').test(text)) mismatches.push(`does not name the ${specialty} referral`);
    }
    if (!/fol(ic|ate)|prenatal/i.test(text)) mismatches.push('does not name the folic acid');
    if (r.stop.length === 0 && r.refer.length === 0 && !/\b(safe|compatible|continue|no change|unchanged)/i.test(text)) mismatches.push('does not say the current medications are compatible and continue');
    return verdict(allOf(found, matchOf(mismatches, ['note read'])));
  },
};

