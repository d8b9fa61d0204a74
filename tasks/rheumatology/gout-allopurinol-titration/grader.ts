// Grader: the latest serum urate decides (facts.ts): at goal the urate-lowering therapy stays as it is; above goal
// allopurinol goes up one titration step (50-100 mg/day, 50 mg/day with eGFR < 30) or, without cardiovascular disease,
// is switched to febuxostat 40-80 mg, with a urate recheck. Orders at the start come from the changes' "before"
// states, the end state from the chart; drugs are recognised by any RxNorm code, brand or text (graders/lib).
import type { Condition, MedicationRequest, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../contracts/task.ts';
import {
  changeOf, codingsOf, createdResources, fail, fetchedAll, findServiceRequest, inCodeSet, isNoLongerActive, label, latestObservation, matchNumber,
  matchOf, matchYesNo, ORDER_GROUPS, quantityOf, verdict, type Match,
} from '../../../graders/lib/index.ts';
import { medicationOrderStates } from '../../../graders/lib/order-states.ts';
import { classesOfOrder, dailyMg, ingredientNamesOf } from '../../../graders/lib/drug-classes.ts';
import {
  ABOVE_GOAL_MIN, ALLOPURINOL_MAX_MG, ANTI_INFLAMMATORY_CLASSES, ANTI_INFLAMMATORY_INGREDIENTS, AT_GOAL_MAX, CARDIOVASCULAR_DISEASE, CARDIOVASCULAR_ICD10,
  COLCHICINE_MAX_MG_PER_DAY, EGFR_RESULTS, FEBUXOSTAT_DOSES_MG, GOUT, OTHER_URATE_LOWERING, RECHECK_WITHIN_DAYS, SEVERE_CKD_EGFR, STEP_MG,
  URATE_GOAL_MG_DL, URATE_RESULTS,
} from './facts.ts';

const DAY = 86_400_000;
const names = (o: MedicationRequest) => ingredientNamesOf(o.medicationCodeableConcept);
const isAllopurinol = (o: MedicationRequest) => names(o).includes('allopurinol');
const isFebuxostat = (o: MedicationRequest) => names(o).includes('febuxostat');
const isXanthineOxidaseInhibitor = (o: MedicationRequest) => isAllopurinol(o) || isFebuxostat(o);
const isLive = (o: MedicationRequest) => ['active', 'draft', 'on-hold'].includes(o.status);
const describe = (o: MedicationRequest) => `${label(o)} ${o.medicationCodeableConcept?.text ?? codingsOf(o.medicationCodeableConcept).map((c) => c.display).join(' / ')} (${o.status}, ${dailyMg(o) ?? '?'} mg/day)`;

/** Variants: active gout, an active allopurinol order and a latest urate clearly at or clearly above goal. */
export async function select({ fhir, patient }: SelectContext): Promise<boolean> {
  const conditions = await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active', _count: 1000 });
  if (!conditions.some((c) => inCodeSet(c.code, { system: GOUT.system, codes: [GOUT.code] }))) return false;
  const orders = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active', _count: 1000 });
  if (!orders.some((o) => o.status === 'active' && isAllopurinol(o))) return false;
  const urate = quantityOf(await latestObservation(fhir, patient, URATE_RESULTS))?.value;
  return urate !== undefined && (urate <= AT_GOAL_MAX || urate >= ABOVE_GOAL_MIN);
}

interface State {
  urate: number;
  egfr: number | undefined;
  cardiovascular: boolean;
  /** Orders active when the episode began (their state before any change). */
  atStart: MedicationRequest[];
  /** Orders active at the end. */
  atEnd: MedicationRequest[];
  /** Orders the episode created, any status. */
  created: MedicationRequest[];
}

async function stateOf(ctx: GraderContext): Promise<State | string> {
  const { fhir, patient, changes } = ctx;
  const urate = quantityOf(await latestObservation(fhir, patient, URATE_RESULTS))?.value;
  if (urate === undefined) return 'the chart holds no serum urate (binding error)';
  const egfr = quantityOf(await latestObservation(fhir, patient, EGFR_RESULTS))?.value;
  const conditions = await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active', _count: 1000 });
  const cardiovascular = conditions.some((c) => inCodeSet(c.code, CARDIOVASCULAR_DISEASE) || codingsOf(c.code).some((x) => CARDIOVASCULAR_ICD10.test(x.code ?? '')));
  return { urate, egfr, cardiovascular, ...(await medicationOrderStates({ fhir, patient, changes })) };
}

/** Run a check that needs the chart state; a chart without a urate fails every such check as a binding error. */
const withState = (check: (ctx: GraderContext, state: State) => CheckResult | Promise<CheckResult>): Check => async (ctx) => {
  const state = await stateOf(ctx);
  return typeof state === 'string' ? fail(state) : check(ctx, state);
};

const aboveGoal = (s: State) => s.urate >= URATE_GOAL_MG_DL;
const severeCkd = (s: State) => s.egfr !== undefined && s.egfr < SEVERE_CKD_EGFR;

/** The starting allopurinol daily dose (all active allopurinol orders together), or undefined when unreadable. */
function startingAllopurinolMg(s: State): number | undefined {
  const orders = s.atStart.filter(isAllopurinol);
  const doses = orders.map(dailyMg);
  return orders.length === 0 || doses.some((d) => d === undefined) ? undefined : doses.reduce((a, b) => a! + b!, 0);
}

/** At goal: the urate-lowering therapy is unchanged (allopurinol active at the starting daily dose, nothing added). */
function keepPlan(s: State, start: number): Match {
  const mismatches: string[] = [];
  const allopurinol = s.atEnd.filter(isAllopurinol);
  const total = allopurinol.reduce<number | undefined>((sum, o) => (sum === undefined || dailyMg(o) === undefined ? undefined : sum + dailyMg(o)!), 0);
  if (allopurinol.length === 0) mismatches.push(`urate ${s.urate} mg/dL is at goal, yet no allopurinol order is active at the end`);
  else if (total === undefined) mismatches.push(`the allopurinol dose at the end cannot be read (${allopurinol.map(describe).join('; ')})`);
  else if (Math.abs(total - start) > 1e-9) mismatches.push(`urate ${s.urate} mg/dL is at goal (< ${URATE_GOAL_MG_DL}), yet allopurinol changed from ${start} to ${total} mg/day`);
  for (const o of s.atEnd.filter(isFebuxostat)) mismatches.push(`${describe(o)}: febuxostat with the urate already at goal`);
  return matchOf(mismatches, [`urate ${s.urate} mg/dL at goal: keep allopurinol ${start} mg/day`, ...allopurinol.map(describe)]);
}

/** Above goal: one titration step of allopurinol, or a switch to febuxostat where the chart allows it. */
function titratePlan(s: State, start: number): Match {
  const step = severeCkd(s) ? STEP_MG.severeCkd : STEP_MG.normal;
  const low = start + step.min;
  const high = Math.min(start + step.max, ALLOPURINOL_MAX_MG);
  const allopurinol = s.atEnd.filter(isAllopurinol);
  const febuxostat = s.atEnd.filter(isFebuxostat);
  const why = `urate ${s.urate} mg/dL above goal, eGFR ${s.egfr ?? 'unknown'}: allopurinol ${start} -> ${low === high ? low : `${low}-${high}`} mg/day`;
  if (febuxostat.length > 0 && allopurinol.length === 0) {
    const mismatches: string[] = [];
    if (s.cardiovascular) mismatches.push('switch to febuxostat in a patient with established cardiovascular disease (FDA boxed warning; ACR 2020 advises against)');
    const doses = severeCkd(s) ? FEBUXOSTAT_DOSES_MG.severeCkd : FEBUXOSTAT_DOSES_MG.normal;
    for (const o of febuxostat) {
      const mg = dailyMg(o);
      if (mg === undefined || !doses.some((d) => Math.abs(d - mg) < 1e-9)) mismatches.push(`${describe(o)}: febuxostat dose must be ${doses.join(' or ')} mg/day${severeCkd(s) ? ' with eGFR < 30' : ''}`);
    }
    if (febuxostat.length > 1) mismatches.push(`${febuxostat.length} active febuxostat orders`);
    return matchOf(mismatches, [why, `switched to febuxostat: ${febuxostat.map(describe).join('; ')}`]);
  }
  if (allopurinol.length === 0) return matchOf([`${why}; no allopurinol (or febuxostat) order is active at the end`]);
  const total = allopurinol.reduce<number | undefined>((sum, o) => (sum === undefined || dailyMg(o) === undefined ? undefined : sum + dailyMg(o)!), 0);
  if (total === undefined) return matchOf([`${why}; the allopurinol dose at the end cannot be read (${allopurinol.map(describe).join('; ')})`]);
  if (total < low - 1e-9 || total > high + 1e-9) return matchOf([`${why}; the active allopurinol totals ${total} mg/day (${allopurinol.map(describe).join('; ')})`]);
  return matchOf([], [why, `allopurinol now ${total} mg/day: ${allopurinol.map(describe).join('; ')}`]);
}

export const checks: Record<string, Check> = {
  reviewed_urate: async ({ fhir, patient, log }) => {
    const latest = await latestObservation(fhir, patient, URATE_RESULTS);
    if (!latest) return fail('the chart holds no serum urate');
    return verdict(fetchedAll(log, [`Observation/${latest.id}`], 'latest serum urate'));
  },
  reviewed_urate_lowering_order: withState((ctx, s) => {
    const orders = s.atStart.filter(isXanthineOxidaseInhibitor);
    if (orders.length === 0) return fail('no active allopurinol order at the start (binding error)');
    return verdict(fetchedAll(ctx.log, orders.map((o) => `MedicationRequest/${o.id}`), 'active allopurinol order'));
  }),
  stated_urate_and_goal: withState((ctx, s) => verdict(matchOf([
    ...matchNumber(ctx.answer, { value: s.urate, unit: 'mg/dL', tolerance: { absolute: 0.05 }, fields: ['urate', 'uricAcid', 'uric_acid', 'serumUrate'], near: ['urate', 'uric acid', 'su'], window: 40 }).mismatches,
    ...matchYesNo(ctx.answer, !aboveGoal(s), {
      fields: ['atGoal', 'at_goal', 'atTarget'],
      yes: ['at goal', 'at target', 'below goal', 'below target', 'below the goal', 'below the target', 'at the goal', 'at the target', 'goal met', 'target met', 'on target'],
      no: ['not at goal', 'above goal', 'above target', 'not at target', 'above the goal', 'above the target', 'not at the goal', 'not at the target', 'goal not met', 'not on target', 'off target'],
    }).mismatches,
  ], [`latest urate ${s.urate} mg/dL (${aboveGoal(s) ? 'above' : 'at'} goal < ${URATE_GOAL_MG_DL})`]))),
  urate_lowering_plan: withState((_ctx, s) => {
    const start = startingAllopurinolMg(s);
    if (start === undefined) return fail('the starting allopurinol daily dose cannot be read (binding error)');
    return verdict(aboveGoal(s) ? titratePlan(s, start) : keepPlan(s, start));
  }),
  urate_recheck: withState((ctx, s) => {
    if (!aboveGoal(s)) return verdict(matchOf([], [`urate ${s.urate} mg/dL at goal: no recheck required by this task`]));
    const due = Date.parse(ctx.now) + RECHECK_WITHIN_DAYS * DAY;
    const orders = createdResources<ServiceRequest>(ctx.changes, 'ServiceRequest');
    const timely = orders.filter((o) => {
      const at = o.occurrenceDateTime ?? o.occurrencePeriod?.start;
      return at === undefined || Date.parse(at) <= due;
    });
    const match = findServiceRequest(timely, { patient: ctx.patient, group: ORDER_GROUPS.urate, status: ['active'], intent: ['order', 'original-order', 'instance-order'] });
    const late = orders.filter((o) => !timely.includes(o)).map((o) => `${label(o)} is due ${o.occurrenceDateTime ?? o.occurrencePeriod?.start}, later than ${RECHECK_WITHIN_DAYS} days`);
    return verdict(match.ok ? match : matchOf([...match.mismatches, ...late]));
  }),
  single_urate_lowering_order: withState((ctx, s) => {
    const mismatches: string[] = [];
    const live = s.atEnd.filter(isXanthineOxidaseInhibitor);
    if (live.length !== 1) mismatches.push(`${live.length} active allopurinol/febuxostat orders at the end (expected exactly one): ${live.map(describe).join('; ') || 'none'}`);
    for (const order of s.atStart.filter(isXanthineOxidaseInhibitor)) {
      const change = changeOf(ctx.changes, 'MedicationRequest', order.id!);
      if (change?.action === 'deleted') mismatches.push(`${label(order)} was deleted instead of stopped (the order history is lost)`);
    }
    for (const o of s.created.filter((x) => x.status === 'on-hold' && isXanthineOxidaseInhibitor(x))) mismatches.push(`${describe(o)}: a new order left on hold`);
    return verdict(matchOf(mismatches, live.map(describe)));
  }),
  no_overtreatment: withState((_ctx, s) => {
    const mismatches: string[] = [];
    const added = s.created.filter(isLive);
    const antiInflammatory = added.filter((o) => classesOfOrder(o).some((c) => ANTI_INFLAMMATORY_CLASSES.includes(c)) || names(o).some((n) => ANTI_INFLAMMATORY_INGREDIENTS.includes(n)));
    const colchicineMax = severeCkd(s) ? COLCHICINE_MAX_MG_PER_DAY.severeCkd : COLCHICINE_MAX_MG_PER_DAY.normal;
    for (const o of antiInflammatory) {
      if (classesOfOrder(o).includes('systemic-corticosteroid')) mismatches.push(`${describe(o)}: a systemic corticosteroid without a gout flare`);
      if (names(o).includes('colchicine')) {
        const mg = dailyMg(o);
        if (mg === undefined || mg > colchicineMax + 1e-9) mismatches.push(`${describe(o)}: colchicine above the prophylactic ${colchicineMax} mg/day${severeCkd(s) ? ' for eGFR < 30' : ''}`);
      }
    }
    if (!aboveGoal(s) && antiInflammatory.length > 0) mismatches.push(`urate at goal and nothing titrated, yet anti-inflammatory prophylaxis started: ${antiInflammatory.map(describe).join('; ')}`);
    if (antiInflammatory.length > 1) mismatches.push(`${antiInflammatory.length} anti-inflammatory agents started together: ${antiInflammatory.map(describe).join('; ')}`);
    for (const o of added.filter((x) => names(x).some((n) => OTHER_URATE_LOWERING.includes(n)))) mismatches.push(`${describe(o)}: a second urate-lowering drug instead of titrating`);
    return verdict(matchOf(mismatches, [`${added.length} new medication orders checked`]));
  }),
};
