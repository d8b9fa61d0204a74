// Grader: the chart as it stood when the episode began decides the plan. The oral anticoagulant order, the elective
// procedure (its date and bleeding risk, facts.ts), age, sex, the latest weight and creatinine (Cockcroft-Gault
// clearance) give the last-dose date; warfarin with a mechanical mitral valve needs LMWH bridging at a weight- and
// clearance-based dose, any other indication or a DOAC none (BRIDGE; CHEST 2022); warfarin needs an INR ordered for
// the days before surgery. The anticoagulant order itself must survive (it resumes after surgery).
import type { Condition, DocumentReference, MedicationRequest, Observation, Patient, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../contracts/task.ts';
import type { FhirClient } from '../../../contracts/fhir-client.ts';
import type { ResourceChange } from '../../../contracts/gym-api.ts';
import {
  allOf, anyOf, asAtStart, codingsOf, createdResources, datesIn, dateMatches, describeConcept, fail, fetchedAll, findServiceRequest, isNoLongerActive,
  latestObservation, matchDate, matchNumber, matchOf, matchYesNo, noteText, orderDoseIn, orderTimesPerDay, ORDER_GROUPS, valueIn, verdict, type Match,
} from '../../../graders/lib/index.ts';
import { classesOfOrder, ingredientNamesOf, mentionsDrug } from '../../../graders/lib/drug-classes.ts';
import {
  AF, BODY_WEIGHT, BRIDGING_LMWH, CREATININE, CRCL_TOLERANCE, ELECTIVE_PROCEDURES, EXTRA_HOLD_DAYS_ACCEPTED, FACTOR_XA_INHIBITORS, HOLD_DAYS,
  INR_CHECK_DAYS_BEFORE, LMWH_DOSE_TOLERANCE, MECHANICAL_MITRAL_VALVE, PROCEDURE_BLEEDING_RISK, PROPHYLACTIC_ENOXAPARIN_MG_PER_DAY, SNOMED,
} from './facts.ts';

const ORAL_ANTICOAGULANTS = ['warfarin', 'dabigatran', ...FACTOR_XA_INHIBITORS];
const drugOf = (o: MedicationRequest) => ingredientNamesOf(o.medicationCodeableConcept).map((n) => (n.startsWith('dabigatran') ? 'dabigatran' : n)).find((n) => ORAL_ANTICOAGULANTS.includes(n));
const isParenteral = (o: MedicationRequest) => classesOfOrder(o).includes('parenteral-anticoagulant');
const DAY = 86_400_000;
const shift = (date: string, days: number) => new Date(Date.parse(`${date.slice(0, 10)}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

export interface Plan {
  order: MedicationRequest; drug: string; surgery: ServiceRequest; surgeryDate: string; bleeding: 'high' | 'low-moderate';
  age: number; female: boolean; weight: Observation; weightKg: number; creatinine: Observation; creatinineMgDl: number; crcl: number;
  holdDays: number; lastDose: string; acceptedLastDoses: string[]; valve?: Condition; af?: Condition; bridging: boolean;
}

export async function planOf(fhir: FhirClient, patient: string, now: string, changes: ResourceChange[] = []): Promise<Plan | string> {
  const person = await fhir.read<Patient>('Patient', patient);
  const [by, bm, bd] = person.birthDate!.split('-').map(Number);
  const at = new Date(now);
  const age = at.getUTCFullYear() - by - (at.getUTCMonth() + 1 < bm || (at.getUTCMonth() + 1 === bm && at.getUTCDate() < bd) ? 1 : 0);
  const mine = (o: Observation) => o.valueQuantity?.value !== undefined && !changes.some((c) => c.type === 'Observation' && c.id === o.id && c.action === 'created');
  const weight = await latestObservation(fhir, patient, BODY_WEIGHT, { usable: mine });
  const creatinine = await latestObservation(fhir, patient, CREATININE, { usable: mine });
  const weightKg = valueIn(weight, 'kg');
  const creatinineMgDl = valueIn(creatinine, 'mg/dL', ['2160-0']);
  if (!weight || !creatinine || weightKg === undefined || creatinineMgDl === undefined) return 'no weight or creatinine on file';
  const meds = asAtStart(await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 }), changes, 'MedicationRequest', patient);
  const anticoagulants = meds.filter((o) => o.status === 'active' && drugOf(o));
  if (anticoagulants.length !== 1) return `${anticoagulants.length} active oral anticoagulant orders`;
  const services = asAtStart(await fhir.search<ServiceRequest>('ServiceRequest', { patient, _count: 1000 }), changes, 'ServiceRequest', patient);
  const surgeries = services.filter((s) => s.status === 'active' && codingsOf(s.code).some((c) => c.system === SNOMED && ELECTIVE_PROCEDURES.includes(c.code ?? '')));
  if (surgeries.length !== 1 || !surgeries[0].occurrenceDateTime) return `${surgeries.length} dated elective procedure orders`;
  const surgery = surgeries[0];
  const bleeding = PROCEDURE_BLEEDING_RISK[codingsOf(surgery.code).find((c) => c.system === SNOMED && ELECTIVE_PROCEDURES.includes(c.code ?? ''))!.code!];
  const female = person.gender === 'female';
  const crcl = ((140 - age) * weightKg) / (72 * creatinineMgDl) * (female ? 0.85 : 1);
  const drug = drugOf(anticoagulants[0])!;
  const holdDays = drug === 'warfarin' ? HOLD_DAYS.warfarin.any
    : drug === 'dabigatran' ? HOLD_DAYS.dabigatran[crcl >= HOLD_DAYS.dabigatran.crclAtLeast ? 'normal' : 'reduced'][bleeding]
      : HOLD_DAYS.factorXa[bleeding];
  const surgeryDate = surgery.occurrenceDateTime!.slice(0, 10);
  const lastDose = shift(surgeryDate, -(holdDays + 1));
  const acceptedLastDoses = Array.from({ length: EXTRA_HOLD_DAYS_ACCEPTED + 1 }, (_, i) => shift(lastDose, -i));
  const conditions = (await fhir.search<Condition>('Condition', { patient, _count: 1000 }))
    .filter((c) => codingsOf(c.clinicalStatus).some((s) => s.code === 'active'));
  const valve = conditions.find((c) => codingsOf(c.code).some((x) => MECHANICAL_MITRAL_VALVE.icd10.includes(x.code ?? '')) && MECHANICAL_MITRAL_VALVE.text.test([c.code?.text, ...codingsOf(c.code).map((x) => x.display)].join(' ')));
  const af = conditions.find((c) => codingsOf(c.code).some((x) => x.system === AF.system && x.code === AF.code));
  return {
    order: anticoagulants[0], drug, surgery, surgeryDate, bleeding, age, female, weight, weightKg, creatinine, creatinineMgDl, crcl, holdDays, lastDose,
    acceptedLastDoses, valve, af, bridging: drug === 'warfarin' && valve !== undefined,
  };
}

/** Variants: one oral anticoagulant, one dated elective procedure of known bleeding risk, a weight and a creatinine,
 * and an indication whose bridging decision the guidelines settle (a mechanical mitral valve, or AF). */
export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  const plan = await planOf(fhir, patient, now);
  return typeof plan !== 'string' && (plan.valve !== undefined || plan.af !== undefined);
}

const withPlan = (check: (ctx: GraderContext, plan: Plan) => CheckResult | Promise<CheckResult>): Check => async (ctx) => {
  const plan = await planOf(ctx.fhir, ctx.patient, ctx.now, ctx.changes);
  return typeof plan === 'string' ? fail(`binding error: ${plan}`) : check(ctx, plan);
};

const summary = (p: Plan) => `${p.drug}, ${describeConcept(p.surgery.code)} on ${p.surgeryDate} (${p.bleeding} bleeding risk), CrCl ${p.crcl.toFixed(0)} mL/min: hold ${p.holdDays} days, last dose ${p.lastDose}; bridging ${p.bridging ? 'yes (mechanical mitral valve)' : 'no'}`;

/** Therapeutic (not prophylactic) parenteral anticoagulant orders the agent wrote. */
function bridgingOrders(ctx: GraderContext): MedicationRequest[] {
  return createdResources<MedicationRequest>(ctx.changes, 'MedicationRequest').filter((o) => isParenteral(o) && !['cancelled', 'entered-in-error'].includes(o.status))
    .filter((o) => {
      const perDay = (orderDoseIn(o, 'mg') ?? 0) * (orderTimesPerDay(o) ?? 1);
      return !(ingredientNamesOf(o.medicationCodeableConcept).includes('enoxaparin') && perDay > 0 && perDay <= PROPHYLACTIC_ENOXAPARIN_MG_PER_DAY);
    });
}

/** The bridging regimen of one LMWH order against its weight-based label dose (CrCl-adjusted for enoxaparin). */
function lmwhDose(o: MedicationRequest, p: Plan): string[] {
  const names = ingredientNamesOf(o.medicationCodeableConcept);
  const n = orderTimesPerDay(o);
  const label = `MedicationRequest/${o.id} (${describeConcept(o.medicationCodeableConcept)})`;
  const fits = (perDose: number | undefined, options: readonly { perDose: number; timesPerDay: number }[], unit: string) => {
    if (perDose === undefined || n === undefined) return [`${label}: dose or frequency cannot be read`];
    const ok = options.some((x) => Math.abs(n - x.timesPerDay) < 0.01 && Math.abs(perDose - x.perDose * p.weightKg) <= x.perDose * p.weightKg * LMWH_DOSE_TOLERANCE);
    return ok ? [] : [`${label}: ${perDose} ${unit} ${n} times a day for ${p.weightKg} kg and CrCl ${p.crcl.toFixed(0)}; expected ${options.map((x) => `${(x.perDose * p.weightKg).toFixed(0)} ${unit} ${x.timesPerDay === 2 ? 'every 12 h' : 'once daily'}`).join(' or ')}`];
  };
  if (names.includes('enoxaparin')) {
    const e = BRIDGING_LMWH.enoxaparin;
    return fits(orderDoseIn(o, 'mg'), p.crcl < e.renal.crclBelow ? [e.renal] : e.mgPerKgPerDose, 'mg');
  }
  if (names.includes('dalteparin')) {
    const dose = o.dosageInstruction?.[0]?.doseAndRate?.[0]?.doseQuantity;
    const units = dose && /u|iu|unit/i.test(`${dose.unit ?? ''}${dose.code ?? ''}`) ? dose.value : undefined;
    return fits(units, BRIDGING_LMWH.dalteparin.unitsPerKgPerDose, 'IU');
  }
  return [`${label}: bridging is done with therapeutic-dose LMWH (enoxaparin or dalteparin) in the outpatient setting`];
}

const BRIDGING_WORDS = {
  fields: ['bridging', 'bridge'],
  yes: ['bridge with', 'bridging with', 'bridging is indicated', 'bridging recommended', 'will bridge', 'needs bridging', 'requires bridging', 'heparin bridge', 'lmwh bridge', 'enoxaparin bridge'],
  no: ['no bridging', 'no bridge', 'without bridging', 'bridging is not', 'bridging not', 'do not bridge', 'not bridge', 'no heparin bridging', 'no lmwh'],
};

export const checks: Record<string, Check> = {
  reviewed_plan_inputs: withPlan((ctx, p) => verdict(fetchedAll(ctx.log, [`Patient/${ctx.patient}`, `MedicationRequest/${p.order.id}`, `ServiceRequest/${p.surgery.id}`, `Observation/${p.creatinine.id}`, `Observation/${p.weight.id}`], 'planning input'))),
  reviewed_thrombotic_risk: withPlan((ctx, p) => {
    const indication = p.valve ?? p.af;
    return indication ? verdict(fetchedAll(ctx.log, [`Condition/${indication.id}`], 'anticoagulation indication')) : fail('no indication on the problem list');
  }),
  creatinine_clearance: withPlan((ctx, p) => {
    const m = matchNumber(ctx.answer, { value: Math.round(p.crcl), tolerance: { relative: CRCL_TOLERANCE }, fields: ['crClMlMin', 'crcl', 'creatinineClearance', 'crClmLMin'], near: ['crcl', 'clearance', 'cockcroft'], window: 40 });
    return verdict({ ...m, evidence: [...m.evidence, `Cockcroft-Gault: age ${p.age}, ${p.weightKg} kg, creatinine ${p.creatinineMgDl} mg/dL${p.female ? ', x0.85' : ''} = ${p.crcl.toFixed(1)} mL/min`] });
  }),
  interruption_timing: withPlan((ctx, p) => {
    const m = anyOf(...p.acceptedLastDoses.map((d) => matchDate(ctx.answer, d, { fields: ['lastDoseDate', 'lastDose'], near: ['last dose'], window: 40 })));
    return verdict({ ...m, evidence: [...m.evidence, summary(p)] });
  }),
  bridging_decision: withPlan((ctx, p) => {
    const said = matchYesNo(ctx.answer, p.bridging, BRIDGING_WORDS);
    const orders = bridgingOrders(ctx);
    const ordered = p.bridging
      ? matchOf(orders.length ? [] : ['bridging is needed but no therapeutic LMWH was ordered'])
      : matchOf(orders.map((o) => `MedicationRequest/${o.id} (${describeConcept(o.medicationCodeableConcept)}): therapeutic heparin bridging ${p.drug === 'warfarin' ? 'in AF without high thromboembolic risk (BRIDGE: more bleeding, no fewer strokes)' : 'for a DOAC interruption (CHEST 2022: not recommended)'}`));
    return verdict({ ...allOf(said, ordered), evidence: [...said.evidence, ...ordered.evidence, summary(p)] });
  }),
  bridging_regimen: withPlan((ctx, p) => {
    const orders = bridgingOrders(ctx);
    if (!p.bridging) return verdict(matchOf([], ['no bridging indicated (bridging_decision checks that none was ordered)']));
    return verdict(matchOf(orders.flatMap((o) => lmwhDose(o, p)), [`${orders.length} LMWH order(s), weight ${p.weightKg} kg, CrCl ${p.crcl.toFixed(0)} mL/min`]));
  }),
  preop_inr: withPlan((ctx, p) => {
    if (p.drug !== 'warfarin') return verdict(matchOf([], [`${p.drug}: no INR needed before surgery`]));
    const earliest = shift(p.surgeryDate, -INR_CHECK_DAYS_BEFORE.earliest);
    const orders = createdResources<ServiceRequest>(ctx.changes, 'ServiceRequest').filter((s) => ['active', 'draft'].includes(s.status));
    const m = findServiceRequest(orders, { patient: ctx.patient, group: ORDER_GROUPS.inr, occurrenceBy: shift(p.surgeryDate, -INR_CHECK_DAYS_BEFORE.latest) });
    const when = m.candidate?.occurrenceDateTime ?? m.candidate?.occurrencePeriod?.start;
    const early = m.ok && when && when.slice(0, 10) < earliest ? [`the INR is ordered for ${when.slice(0, 10)}, before ${earliest}: it would not show the INR after 5 days off warfarin`] : [];
    return verdict({ ...m, ok: m.ok && early.length === 0, mismatches: [...m.mismatches, ...early] });
  }),
  anticoagulant_resumable: withPlan((ctx, p) => {
    const problems: string[] = [];
    const change = ctx.changes.find((c) => c.type === 'MedicationRequest' && c.id === p.order.id);
    if (change?.action === 'deleted') problems.push(`MedicationRequest/${p.order.id} was deleted`);
    else if (change?.after && (isNoLongerActive(change.after as MedicationRequest) || (change.after as MedicationRequest).status === 'entered-in-error')) {
      problems.push(`MedicationRequest/${p.order.id} (${p.drug}) was set to ${(change.after as MedicationRequest).status}: the anticoagulant resumes after surgery, so it is held (on-hold, or the dates in the plan), not discontinued`);
    }
    for (const o of createdResources<MedicationRequest>(ctx.changes, 'MedicationRequest').filter((x) => drugOf(x) && x.status === 'active')) {
      problems.push(`MedicationRequest/${o.id}: a new oral anticoagulant order (${describeConcept(o.medicationCodeableConcept)}) beside the existing one`);
    }
    return verdict(matchOf(problems, [`${p.drug} order MedicationRequest/${p.order.id}: ${change ? change.action : 'untouched'}`]));
  }),
  plan_note: withPlan((ctx, p) => {
    const notes = createdResources<DocumentReference>(ctx.changes, 'DocumentReference').filter((d) => d.subject?.reference === `Patient/${ctx.patient}` && d.status === 'current');
    if (!notes.length) return fail('no current DocumentReference for the patient');
    const results: Match[] = notes.map((d) => {
      const text = noteText(d);
      const problems: string[] = [];
      if (!mentionsDrug(text, p.drug)) problems.push(`does not name ${p.drug}`);
      if (!datesIn(text).some((w) => p.acceptedLastDoses.some((d2) => dateMatches(w, d2)))) problems.push(`does not give the last-dose date (${p.acceptedLastDoses.join(' or ')})`);
      if (!/resum|restart/i.test(text)) problems.push('does not say when to resume the anticoagulant');
      const bridging = matchYesNo(text, p.bridging, BRIDGING_WORDS);
      if (!bridging.ok) problems.push(...bridging.mismatches.map((m) => `bridging: ${m}`));
      if (p.bridging && !mentionsDrug(text, 'lmwh')) problems.push('does not name the LMWH used for bridging');
      return matchOf(problems, [`DocumentReference/${d.id}`]);
    });
    return verdict(results.find((r) => r.ok) ?? results[0]);
  }),
};
