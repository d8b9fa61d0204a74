// Grader: the two latest office blood pressures decide (facts.ts GOAL): above goal the regimen is intensified by one
// first-line step (two when far above) that the latest potassium and eGFR allow - a higher ACE inhibitor dose, or an
// added thiazide-type diuretic or calcium channel blocker, alone or as a single-pill combination; at goal it stays as
// it is. The regimen at the start comes from the changes' "before" states, the end state from the chart; drugs are
// recognised by any RxNorm code, brand or text and doses by the dose readers (graders/lib). The note is checked for
// the chart's key facts (graders/documentation covers/grounded) and for the direction it takes on the change.
import type { Condition, DocumentReference, MedicationRequest, Observation, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../contracts/task.ts';
import {
  codingsOf, createdResources, dailyDose, fail, fetchedAll, findServiceRequest, inCodeSet, ingredientByName, label, latestObservation,
  matchOf, matchRecommendation, observations, ORDER_GROUPS, quantityOf, verdict,
} from '../../../graders/lib/index.ts';
import { medicationOrderStates } from '../../../graders/lib/order-states.ts';
import { classesOfOrder, dailyMg, ingredientNamesInText, ingredientNamesOf, namesInTextFor } from '../../../graders/lib/drug-classes.ts';
import { chartFromFhir, covers, keyFactOf, noteReport, noteTextOf } from '../../../graders/documentation/index.ts';
import {
  ACE_UP_TITRATION_MAX_K, ADD_ON_AGENTS, ANTIHYPERTENSIVE_CLASSES, BETA_BLOCKER_INDICATIONS, BP_PANELS, DIASTOLIC, EGFR_RESULTS, FAR_ABOVE, GOAL,
  HEART_FAILURE, HYPERTENSION, LAB_AFFECTING_CLASSES, LAB_RECHECK_DAYS, LISINOPRIL, NOT_ADD_ON_CLASSES, OTHER_ANTIHYPERTENSIVES, POTASSIUM_RAISING_CLASSES, POTASSIUM_RESULTS,
  SYSTOLIC, THIAZIDE_MIN_EGFR,
} from './facts.ts';

const DAY = 86_400_000;

export function bloodPressure(obs: Observation): { systolic: number; diastolic: number } | undefined {
  const part = (code: string) => obs.component?.find((c) => c.code?.coding?.some((x) => x.code === code))?.valueQuantity?.value;
  const systolic = part(SYSTOLIC);
  const diastolic = part(DIASTOLIC);
  return systolic === undefined || diastolic === undefined ? undefined : { systolic, diastolic };
}

async function recentPressures(fhir: GraderContext['fhir'], patient: string): Promise<Observation[]> {
  return (await observations(fhir, patient, BP_PANELS)).filter((o) => bloodPressure(o)).slice(0, 2);
}

const above = (o: Observation) => bloodPressure(o)!.systolic >= GOAL.systolic || bloodPressure(o)!.diastolic >= GOAL.diastolic;
const farAbove = (o: Observation) => bloodPressure(o)!.systolic >= FAR_ABOVE.systolic || bloodPressure(o)!.diastolic >= FAR_ABOVE.diastolic;
const names = (o: MedicationRequest) => ingredientNamesOf(o.medicationCodeableConcept);
const isAntihypertensive = (o: MedicationRequest) => classesOfOrder(o).some((c) => ANTIHYPERTENSIVE_CLASSES.includes(c)) || names(o).some((n) => OTHER_ANTIHYPERTENSIVES.includes(n));
const isAce = (o: MedicationRequest) => classesOfOrder(o).includes('ace-inhibitor');
const describe = (o: MedicationRequest) => `${label(o)} ${o.medicationCodeableConcept?.text ?? codingsOf(o.medicationCodeableConcept).map((c) => c.display).join(' / ')} (${o.status})`;

/** Milligrams per day of one ingredient of an order (the lisinopril of lisinopril/HCTZ), undefined when unreadable. */
function ingredientMg(order: MedicationRequest, ingredient: string): number | undefined {
  const rxcui = ingredientByName(ingredient);
  const single = names(order).length === 1;
  const perDay = rxcui ? dailyDose(order, 'mg', { ingredients: [rxcui] }) : undefined;
  if (perDay !== undefined && (!single || rxcui)) return perDay;
  return single ? dailyMg(order) : undefined;
}

/** Variants: hypertension, lisinopril the only antihypertensive, no heart failure, eGFR >= 30, a potassium, and the two
 * latest blood pressures both above or both below goal. */
export async function select({ fhir, patient }: SelectContext): Promise<boolean> {
  const bps = await recentPressures(fhir, patient);
  if (bps.length < 2 || above(bps[0]) !== above(bps[1])) return false;
  const egfr = quantityOf(await latestObservation(fhir, patient, EGFR_RESULTS));
  if (!egfr || egfr.value < 30 || !(await latestObservation(fhir, patient, POTASSIUM_RESULTS))) return false;
  const conditions = await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active', _count: 1000 });
  if (!conditions.some((c) => inCodeSet(c.code, HYPERTENSION))) return false;
  if (conditions.some((c) => inCodeSet(c.code, HEART_FAILURE) || /heart failure/i.test(c.code?.text ?? ''))) return false;
  const meds = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active', _count: 1000 })).filter((o) => o.status === 'active' && isAntihypertensive(o));
  return meds.length === 1 && names(meds[0]).length === 1 && names(meds[0])[0] === LISINOPRIL.ingredient && dailyMg(meds[0]) !== undefined;
}

interface State {
  bps: Observation[];
  k: Observation;
  egfr: Observation;
  conditions: Condition[];
  atStart: MedicationRequest[];
  atEnd: MedicationRequest[];
  created: MedicationRequest[];
}

async function stateOf({ fhir, patient, changes }: GraderContext): Promise<State | string> {
  const bps = await recentPressures(fhir, patient);
  const k = await latestObservation(fhir, patient, POTASSIUM_RESULTS);
  const egfr = await latestObservation(fhir, patient, EGFR_RESULTS);
  if (bps.length < 2 || !k || !egfr) return 'the chart lacks two blood pressures, a potassium or an eGFR (binding error)';
  const conditions = await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active', _count: 1000 });
  return { bps, k, egfr, conditions, ...(await medicationOrderStates({ fhir, patient, changes })) };
}

const withState = (check: (ctx: GraderContext, state: State) => CheckResult | Promise<CheckResult>): Check => async (ctx) => {
  const state = await stateOf(ctx);
  return typeof state === 'string' ? fail(state) : check(ctx, state);
};

const isAboveGoal = (s: State) => above(s.bps[0]) && above(s.bps[1]);
const kOf = (s: State) => quantityOf(s.k)!.value;
const egfrOf = (s: State) => quantityOf(s.egfr)!.value;

interface Change {
  /** Intensification steps taken, each described. */
  steps: string[];
  /** Changes that are not acceptable, each described. */
  problems: string[];
  /** Ingredients the note should name for the change (added agents, or the ACE inhibitor when it went up). */
  changedIngredients: string[];
}

/** Compare the antihypertensive regimen at the end with the one at the start. */
function regimenChange(s: State): Change {
  const steps: string[] = [];
  const problems: string[] = [];
  const changedIngredients: string[] = [];
  const startNames = new Set(s.atStart.filter(isAntihypertensive).flatMap(names));
  const endHypertensive = s.atEnd.filter(isAntihypertensive);
  const k = kOf(s);
  const egfr = egfrOf(s);

  // The ACE inhibitor: same ingredient, daily dose compared (the lisinopril of a single-pill combination counts).
  const aceStart = s.atStart.filter(isAce).reduce((sum, o) => sum + (ingredientMg(o, LISINOPRIL.ingredient) ?? NaN), 0);
  const aceEndOrders = endHypertensive.filter(isAce);
  const otherAce = aceEndOrders.filter((o) => !names(o).includes(LISINOPRIL.ingredient));
  for (const o of otherAce) problems.push(`${describe(o)}: a different ACE inhibitor (not a step of the ACC/AHA plan here)`);
  const aceEnd = aceEndOrders.filter((o) => names(o).includes(LISINOPRIL.ingredient)).reduce((sum, o) => sum + (ingredientMg(o, LISINOPRIL.ingredient) ?? NaN), 0);
  const lisinoprilOrders = aceEndOrders.filter((o) => names(o).includes(LISINOPRIL.ingredient));
  if (lisinoprilOrders.length > 1) problems.push(`${lisinoprilOrders.length} active lisinopril-containing orders: ${lisinoprilOrders.map(describe).join('; ')} (the replaced order must be stopped)`);
  if (Number.isNaN(aceEnd)) problems.push(`the lisinopril dose at the end cannot be read (${lisinoprilOrders.map(describe).join('; ')})`);
  else if (aceEnd > aceStart + 1e-9) {
    steps.push(`lisinopril ${aceStart} -> ${aceEnd} mg/day`);
    changedIngredients.push(LISINOPRIL.ingredient);
    if (k > ACE_UP_TITRATION_MAX_K) problems.push(`lisinopril raised to ${aceEnd} mg/day with potassium ${k} mmol/L (> ${ACE_UP_TITRATION_MAX_K})`);
    if (aceEnd > LISINOPRIL.maxMg + 1e-9) problems.push(`lisinopril ${aceEnd} mg/day is above the usual maximum of ${LISINOPRIL.maxMg} mg/day`);
  } else if (aceEnd < aceStart - 1e-9 && aceEndOrders.length > 0) problems.push(`lisinopril lowered from ${aceStart} to ${aceEnd} mg/day`);

  // New agents: ingredients active at the end that were not in the starting regimen.
  const hasRaas = aceEndOrders.length > 0;
  for (const o of endHypertensive) {
    const fresh = names(o).filter((n) => !startNames.has(n));
    if (fresh.length === 0) continue;
    for (const ingredient of fresh) {
      const agent = ADD_ON_AGENTS.find((a) => a.ingredient === ingredient);
      const classes = classesOfOrder(o);
      if (agent) {
        const mg = ingredientMg(o, ingredient);
        steps.push(`${ingredient} added (${describe(o)}, ${mg ?? '?'} mg/day)`);
        changedIngredients.push(ingredient);
        if (mg === undefined) problems.push(`${describe(o)}: the ${ingredient} dose cannot be read`);
        else if (mg < agent.minMg - 1e-9 || mg > agent.maxMg + 1e-9) problems.push(`${describe(o)}: ${ingredient} ${mg} mg/day is outside ${agent.minMg}-${agent.maxMg} mg/day`);
        if (agent.classId === 'thiazide' && egfr < (ingredient === 'chlorthalidone' ? THIAZIDE_MIN_EGFR.chlorthalidone : THIAZIDE_MIN_EGFR.default)) problems.push(`${ingredient} with eGFR ${egfr}`);
        continue;
      }
      if (classes.includes('arb') && !classes.includes('arni') && !hasRaas) {
        // The ACE inhibitor was swapped for an ARB: RAAS blockade continues, no intensification by itself.
        continue;
      }
      if (classes.includes('beta-blocker') && s.conditions.some((c) => inCodeSet(c.code, BETA_BLOCKER_INDICATIONS))) {
        steps.push(`${ingredient} added with a compelling indication (${describe(o)})`);
        changedIngredients.push(ingredient);
        continue;
      }
      const why = classes.filter((c) => NOT_ADD_ON_CLASSES.includes(c));
      problems.push(`${describe(o)}: ${ingredient} is not a first-line add-on to an ACE inhibitor here${why.length ? ` (${why.join(', ')})` : ''}`);
    }
  }
  // Potassium-raising orders are never part of this plan (hyperkalemia with the ACE inhibitor: KDIGO 2024 3.10).
  for (const o of s.created.filter((x) => ['active', 'draft', 'on-hold'].includes(x.status) && !isAntihypertensive(x))) {
    const raising = classesOfOrder(o).filter((c) => POTASSIUM_RAISING_CLASSES.includes(c));
    if (raising.length) problems.push(`${describe(o)}: raises potassium (${raising.join(', ')}) on an ACE inhibitor`);
  }
  for (const o of s.atStart.filter((x) => isAntihypertensive(x) && !s.atEnd.some((e) => e.id === x.id))) {
    const stillCovered = names(o).every((n) => endHypertensive.some((e) => names(e).includes(n)));
    if (!stillCovered && !endHypertensive.some((e) => classesOfOrder(e).includes('arb'))) problems.push(`${describe(o)} stopped without a replacement`);
  }
  return { steps, problems, changedIngredients };
}

/** Unsupported claims a note may make (a claim the verifier cannot tie to the chart, e.g. a home reading). */
const MAX_UNSUPPORTED = 1;

const notes = (ctx: GraderContext) => createdResources<DocumentReference>(ctx.changes, 'DocumentReference')
  .filter((d) => d.subject?.reference === `Patient/${ctx.patient}` && d.status === 'current');

const bpText = (s: State) => s.bps.map((o) => `${bloodPressure(o)!.systolic}/${bloodPressure(o)!.diastolic} (${(o.effectiveDateTime ?? '').slice(0, 10)})`).join(', ');

export const checks: Record<string, Check> = {
  reviewed_bp_and_labs: withState((ctx, s) => verdict(fetchedAll(ctx.log, [...s.bps, s.k, s.egfr].map((o) => `Observation/${o.id}`), 'latest result'))),
  regimen_decision: withState((_ctx, s) => {
    const change = regimenChange(s);
    const context = `two latest BPs ${bpText(s)}: ${isAboveGoal(s) ? 'above' : 'at'} goal < ${GOAL.systolic}/${GOAL.diastolic}; K ${kOf(s)}, eGFR ${egfrOf(s)}`;
    if (isAboveGoal(s)) {
      return verdict(matchOf(change.steps.length ? [] : ['above goal, yet the regimen was not intensified (no higher lisinopril dose, no added first-line agent)'], [context, ...change.steps]));
    }
    return verdict(matchOf(change.steps.map((x) => `at goal, yet the regimen was intensified: ${x}`), [context, 'regimen unchanged']));
  }),
  safe_regimen_change: withState((_ctx, s) => {
    const change = regimenChange(s);
    const allowed = isAboveGoal(s) ? (s.bps.some(farAbove) ? 2 : 1) : 0;
    const extra = isAboveGoal(s) && change.steps.length > allowed ? [`${change.steps.length} intensification steps at once (at most ${allowed} for BPs ${bpText(s)})`] : [];
    return verdict(matchOf([...change.problems, ...extra], [`K ${kOf(s)}, eGFR ${egfrOf(s)}`, ...change.steps]));
  }),
  followup_labs: withState((ctx, s) => {
    const startIds = new Set(s.atStart.map((o) => o.id));
    const aceChanged = regimenChange(s).changedIngredients.includes(LISINOPRIL.ingredient);
    const affecting = s.atEnd.filter((o) => !startIds.has(o.id) && classesOfOrder(o).some((c) => LAB_AFFECTING_CLASSES.includes(c)) && !(isAce(o) && !aceChanged && names(o).length === 1));
    if (!aceChanged && affecting.length === 0) return verdict(matchOf([], ['no change that moves potassium or creatinine: no recheck required']));
    const due = Date.parse(ctx.now) + LAB_RECHECK_DAYS * DAY;
    const orders = createdResources<ServiceRequest>(ctx.changes, 'ServiceRequest').filter((o) => {
      const at = o.occurrenceDateTime ?? o.occurrencePeriod?.start;
      return at === undefined || Date.parse(at) <= due;
    });
    const expected = { patient: ctx.patient, status: ['active'], intent: ['order', 'original-order', 'instance-order'] };
    const k = findServiceRequest(orders, { ...expected, group: ORDER_GROUPS.potassium });
    const renal = findServiceRequest(orders, { ...expected, group: ORDER_GROUPS.renalFunction });
    const why = `${aceChanged ? 'lisinopril changed' : ''}${aceChanged && affecting.length ? '; ' : ''}${affecting.map(describe).join('; ')}`;
    return verdict(matchOf(k.ok && renal.ok ? [] : [`${why}: potassium and creatinine (BMP, CMP, renal panel) must be ordered within ${LAB_RECHECK_DAYS} days`, ...k.mismatches, ...renal.mismatches], [...k.evidence, ...renal.evidence]));
  }),
  note_covers_key_facts: withState(async (ctx, s) => {
    const note = notes(ctx).at(-1);
    if (!note) return fail('no current DocumentReference was written for the patient');
    const htn = s.conditions.find((c) => inCodeSet(c.code, HYPERTENSION));
    if (!htn) return fail('the chart has no active hypertension (binding error)');
    return covers(note, [keyFactOf(s.bps[0], { id: 'latest-bp' }), keyFactOf(s.k, { id: 'latest-potassium' }), keyFactOf(s.egfr, { id: 'latest-egfr' }), keyFactOf(htn, { id: 'hypertension' })],
      await chartFromFhir(ctx.fhir, ctx.patient));
  }),
  note_states_decision: withState((ctx, s) => {
    const note = notes(ctx).at(-1);
    if (!note) return fail('no current DocumentReference was written for the patient');
    const change = regimenChange(s);
    if (change.changedIngredients.length === 0) {
      return verdict(matchRecommendation(note, { subject: namesInTextFor(noteTextOf(note), [LISINOPRIL.ingredient]), expected: 'recommend' }));
    }
    const results = change.changedIngredients.map((n) => matchRecommendation(note, { subject: namesInTextFor(noteTextOf(note), [n]), expected: 'recommend' }));
    const hit = results.find((m) => m.ok);
    return verdict(hit ?? matchOf(results.flatMap((m) => m.mismatches), []));
  }),
  note_grounded: withState(async (ctx, s) => {
    const note = notes(ctx).at(-1);
    if (!note) return fail('no current DocumentReference was written for the patient');
    // A medication claim about a drug the agent itself ordered in this episode is the plan it documents; the verifier
    // does not yet recognise text-only orders ("Norvasc 5 mg tablet"), so such claims are not counted as unsupported.
    const ordered = new Set(s.created.flatMap(names));
    const report = noteReport(note, await chartFromFhir(ctx.fhir, ctx.patient));
    const contradicted = report.verifications.filter((v) => v.verdict === 'contradicted');
    const unsupported = report.verifications.filter((v) => v.verdict === 'unsupported'
      && !(v.claim.kind === 'medication' && ingredientNamesInText(v.claim.text).some((n) => ordered.has(n))));
    const line = (v: (typeof report.verifications)[number]) => `${v.verdict}: "${v.claim.text}" - ${v.reason}`;
    return verdict(matchOf(
      [...contradicted.map(line), ...(unsupported.length > MAX_UNSUPPORTED ? unsupported.map(line) : [])],
      [`${report.claims} claims: ${report.supported} supported, ${contradicted.length} contradicted, ${unsupported.length} unsupported (at most ${MAX_UNSUPPORTED})`],
    ));
  }),
};

