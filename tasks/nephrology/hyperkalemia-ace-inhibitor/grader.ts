// Grader: the latest potassium decides what the plan must do (facts.ts POTASSIUM_BANDS); the orders active at the
// start come from the changes' "before" states, the plan from the final state, the new orders from the changes.
import type { MedicationRequest, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../contracts/task.ts';
import {
  changeOf, createdResources, fail, fetchedAll, findServiceRequest, isNoLongerActive, label, latestObservation, matchNumber, matchOf, observations,
  ORDER_GROUPS, quantityOf, verdict, type Match,
} from '../../../graders/lib/index.ts';
import { medicationOrderStates, type MedicationOrderStates } from '../../../graders/lib/order-states.ts';
import { dailyMg, ingredientNamesOf, orderInClass } from '../../../graders/lib/drug-classes.ts';
import {
  ACE_INHIBITORS, EARLIER_HIGH_WINDOW_DAYS, POTASSIUM_BANDS, POTASSIUM_LOWERING, POTASSIUM_RAISING, POTASSIUM_RESULTS, RECHECK_DAYS, STOP_AT_HIGH,
  type DrugGroup,
} from './facts.ts';

const DAY = 86_400_000;

/** Whether an order is one of the group's drugs (by any RxNorm code, brand or text: graders/lib/drug-classes.ts). */
function inGroup(order: MedicationRequest, group: DrugGroup): boolean {
  return group.classes.some((id) => orderInClass(order, id)) || ingredientNamesOf(order.medicationCodeableConcept).some((n) => group.ingredients.includes(n));
}

/** Variants: latest K >= HIGH, or latest K <= NORMAL_MAX with a high value in the year before it. */
export async function select({ fhir, patient }: SelectContext): Promise<boolean> {
  const results = (await observations(fhir, patient, POTASSIUM_RESULTS)).filter((o) => quantityOf(o) !== undefined);
  const latest = results[0];
  if (!latest) return false;
  const k = quantityOf(latest)!.value;
  if (k >= POTASSIUM_BANDS.HIGH) return true;
  if (k > POTASSIUM_BANDS.NORMAL_MAX) return false;
  const t = Date.parse(latest.effectiveDateTime ?? '');
  return results.slice(1).some((o) => quantityOf(o)!.value >= POTASSIUM_BANDS.HIGH && t - Date.parse(o.effectiveDateTime ?? '') <= EARLIER_HIGH_WINDOW_DAYS * DAY);
}

async function latestK({ fhir, patient }: Pick<GraderContext, 'fhir' | 'patient'>): Promise<number | undefined> {
  return quantityOf(await latestObservation(fhir, patient, POTASSIUM_RESULTS))?.value;
}


const sum = (orders: MedicationRequest[]): number | undefined =>
  orders.reduce<number | undefined>((total, o) => (total === undefined ? undefined : (dailyMg(o) === undefined ? undefined : total + dailyMg(o)!)), 0);

/** The ACE inhibitor daily dose at the start and at the end (undefined when some dose cannot be read). */
function aceExposure(states: MedicationOrderStates) {
  const start = states.atStart.filter((o) => inGroup(o, ACE_INHIBITORS));
  const end = states.atEnd.filter((o) => inGroup(o, ACE_INHIBITORS));
  return { start, end, startMg: sum(start), endMg: end.length === 0 ? 0 : sum(end) };
}

/** Each order of `groups` active at the start is no longer active (stopped, cancelled, completed or on hold; not deleted). */
function stoppedAll(ctx: GraderContext, states: MedicationOrderStates, groups: DrugGroup[], what: string): Match {
  const mismatches: string[] = [];
  const evidence: string[] = [];
  for (const order of states.atStart.filter((o) => groups.some((g) => inGroup(o, g)))) {
    const change = changeOf(ctx.changes, 'MedicationRequest', order.id!);
    const after = change ? (change.after as MedicationRequest | null) : order;
    if (change?.action === 'deleted' || !after) mismatches.push(`${label(order)} (${what}) was deleted instead of stopped`);
    else if (!isNoLongerActive(after, { allowHold: true })) mismatches.push(`${label(order)} (${what}) is still ${after.status} with K >= ${POTASSIUM_BANDS.HIGH}`);
    else evidence.push(`${label(order)} (${what}) -> ${after.status}`);
  }
  return matchOf(mismatches, evidence);
}

/** What lowered potassium exposure in the episode, if anything. */
function exposureLowered(states: MedicationOrderStates): string[] {
  const ways: string[] = [];
  const ace = aceExposure(states);
  if (ace.start.length > 0 && ace.end.length === 0) ways.push('ACE inhibitor no longer active (stopped or held)');
  else if (ace.startMg !== undefined && ace.endMg !== undefined && ace.endMg < ace.startMg - 1e-9) ways.push(`ACE inhibitor reduced from ${ace.startMg} to ${ace.endMg} mg/day`);
  for (const order of states.created.filter((o) => o.status === 'active')) {
    const group = POTASSIUM_LOWERING.find((g) => inGroup(order, g));
    if (group) ways.push(`${group.name} ordered (${label(order)})`);
  }
  const endIds = new Set(states.atEnd.map((o) => o.id));
  for (const order of states.atStart.filter((o) => STOP_AT_HIGH.some((g) => inGroup(o, g)) && !endIds.has(o.id))) ways.push(`${label(order)} stopped`);
  return ways;
}

function highPlan(ctx: GraderContext, states: MedicationOrderStates, k: number): Match {
  const ace = aceExposure(states);
  const mismatches: string[] = [];
  const evidence = [`latest K ${k} mmol/L`];
  if (ace.end.some((o) => dailyMg(o) === undefined)) mismatches.push(`the ACE inhibitor dose at the end cannot be read (${ace.end.map(label).join(', ')})`);
  else if (ace.startMg !== undefined && ace.endMg !== undefined && ace.endMg > ace.startMg + 1e-9) mismatches.push(`ACE inhibitor raised from ${ace.startMg} to ${ace.endMg} mg/day with K ${k}`);
  const removed = stoppedAll(ctx, states, STOP_AT_HIGH, 'potassium supplement / potassium-sparing diuretic');
  mismatches.push(...removed.mismatches);
  evidence.push(...removed.evidence);
  const ways = exposureLowered(states);
  if (k >= POTASSIUM_BANDS.MUST_LOWER && ways.length === 0) {
    mismatches.push(`K ${k} >= ${POTASSIUM_BANDS.MUST_LOWER}: potassium exposure was not lowered (the ACE inhibitor is unchanged and no binder or loop/thiazide diuretic was ordered)`);
  }
  evidence.push(ways.length ? `lowered by: ${ways.join('; ')}` : 'ACE inhibitor continued unchanged');
  return matchOf(mismatches, evidence);
}

function normalPlan(states: MedicationOrderStates, k: number): Match {
  const ace = aceExposure(states);
  const mismatches: string[] = [];
  if (ace.end.length === 0) mismatches.push(`latest K ${k} is normal, yet the ACE inhibitor is no longer active (${ace.start.map(label).join(', ')})`);
  else if (ace.startMg === undefined || ace.endMg === undefined) mismatches.push('the ACE inhibitor daily dose cannot be read');
  else if (Math.abs(ace.endMg - ace.startMg) > 1e-9) mismatches.push(`latest K ${k} is normal, yet the ACE inhibitor changed from ${ace.startMg} to ${ace.endMg} mg/day`);
  for (const order of states.created.filter((o) => ['active', 'draft', 'on-hold'].includes(o.status))) {
    if (inGroup(order, POTASSIUM_LOWERING[0])) mismatches.push(`${label(order)} starts a potassium binder with a normal K ${k}`);
  }
  return matchOf(mismatches, [`latest K ${k} mmol/L: continue`, ...ace.end.map((o) => `${label(o)} active`)]);
}

/** New potassium-raising orders: any group of POTASSIUM_RAISING, or an ACE inhibitor ingredient the patient was not on. */
function potassiumRaisingOrders(states: MedicationOrderStates): Match {
  const startAce = states.atStart.filter((o) => inGroup(o, ACE_INHIBITORS));
  const mismatches: string[] = [];
  for (const o of states.created.filter((x) => ['active', 'draft', 'on-hold'].includes(x.status))) {
    const group = POTASSIUM_RAISING.find((g) => inGroup(o, g));
    if (group) mismatches.push(`${label(o)} orders a ${group.name} (${o.medicationCodeableConcept?.text ?? ''}), which raises potassium`);
    else if (inGroup(o, ACE_INHIBITORS) && !ingredientNamesOf(o.medicationCodeableConcept).every((n) => startAce.some((s) => ingredientNamesOf(s.medicationCodeableConcept).includes(n)))) {
      mismatches.push(`${label(o)} starts another ACE inhibitor (${o.medicationCodeableConcept?.text ?? ''})`);
    }
  }
  return matchOf(mismatches, [`${states.created.length} new medication orders checked`]);
}

export const checks: Record<string, Check> = {
  reviewed_potassium: async ({ fhir, patient, log }) => {
    const latest = await latestObservation(fhir, patient, POTASSIUM_RESULTS);
    if (!latest) return fail('the chart holds no potassium result');
    return verdict(fetchedAll(log, [`Observation/${latest.id}`], 'latest potassium'));
  },
  reviewed_medications: async (ctx) => {
    const states = await medicationOrderStates(ctx);
    const relevant = states.atStart.filter((o) => [ACE_INHIBITORS, ...POTASSIUM_RAISING].some((g) => inGroup(o, g)));
    if (!relevant.some((o) => inGroup(o, ACE_INHIBITORS))) return fail('no active ACE inhibitor at the start (binding error)');
    return verdict(fetchedAll(ctx.log, relevant.map((o) => `MedicationRequest/${o.id}`), 'ACE inhibitor or potassium-raising order'));
  },
  stated_potassium: async ({ fhir, patient, answer }) => {
    const k = await latestK({ fhir, patient });
    if (k === undefined) return fail('the chart holds no potassium result');
    return verdict(matchNumber(answer, { value: k, unit: 'mmol/L', tolerance: { absolute: 0.05 }, near: ['k', 'potassium'], window: 30, fields: ['potassium', 'k'] }));
  },
  potassium_plan: async (ctx): Promise<CheckResult> => {
    const k = await latestK(ctx);
    if (k === undefined) return fail('the chart holds no potassium result');
    const states = await medicationOrderStates(ctx);
    if (k >= POTASSIUM_BANDS.HIGH) return verdict(highPlan(ctx, states, k));
    if (k <= POTASSIUM_BANDS.NORMAL_MAX) return verdict(normalPlan(states, k));
    return fail(`latest K ${k} is in the 5.1-5.4 band, which is not a variant (binding error)`);
  },
  potassium_recheck: async (ctx): Promise<CheckResult> => {
    const k = await latestK(ctx);
    if (k === undefined) return fail('the chart holds no potassium result');
    if (k < POTASSIUM_BANDS.HIGH) return verdict(matchOf([], [`latest K ${k} mmol/L: no recheck required`]));
    const days = k >= POTASSIUM_BANDS.MUST_LOWER ? RECHECK_DAYS.mustLower : RECHECK_DAYS.high;
    const due = Date.parse(ctx.now) + days * DAY;
    const orders = createdResources<ServiceRequest>(ctx.changes, 'ServiceRequest');
    const timely = orders.filter((o) => {
      const at = o.occurrenceDateTime ?? o.occurrencePeriod?.start;
      return at === undefined || Date.parse(at) <= due;
    });
    const match = findServiceRequest(timely, {
      patient: ctx.patient, group: ORDER_GROUPS.potassium, status: ['active'], intent: ['order', 'original-order', 'instance-order'],
    });
    const late = orders.filter((o) => !timely.includes(o)).map((o) => `${label(o)} is due ${o.occurrenceDateTime ?? o.occurrencePeriod?.start}, after ${new Date(due).toISOString().slice(0, 10)}`);
    return verdict(match.ok ? match : matchOf([...match.mismatches, ...late], [`K ${k}: recheck due within ${days} days`]));
  },
  no_potassium_raising_orders: async (ctx) => verdict(potassiumRaisingOrders(await medicationOrderStates(ctx))),
};
