// Grader: the GDMT orders active at the start (changes' "before" states) and the latest eGFR/potassium decide which
// missing pillar must be started and which must not (facts.ts, 2022 AHA/ACC/HFSA); the new orders come from the
// changes, the end state must hold one active order per pillar that was on board and no ACE inhibitor with an ARNI.
import type { MedicationRequest } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../contracts/task.ts';
import type { FhirClient } from '../../../contracts/fhir-client.ts';
import { activeOrdersAtStart,
  allOf, answerField, answerText, effectiveTime, fail, fetchedAll, findMedicationOrder, label, latestObservation, matchNumber, matchOf,
  observations, quantityOf, verdict, type Match,
} from '../../../graders/lib/index.ts';
import { classesOfOrder, dailyMg, ingredientNamesOf, mentionsDrug } from '../../../graders/lib/drug-classes.ts';
import {
  EGFR_RESULTS, MRA_MAX_POTASSIUM_EXCLUSIVE, MRA_MIN_EGFR_EXCLUSIVE, NEVER_TOGETHER, PILLARS, POTASSIUM_RESULTS, SGLT2_MIN_EGFR, SGLT2_SUSTAINED_DAYS,
  START_DOSES, type Pillar,
} from './facts.ts';

const DAY = 86_400_000;
const IN_FORCE = ['active', 'draft', 'on-hold'];
const fills = (o: MedicationRequest, p: Pillar) => classesOfOrder(o).some((c) => p.classes.includes(c));


interface Plan {
  egfr: number;
  potassium: number;
  onBoard: Pillar[];
  missing: Pillar[];
  /** Missing pillars that must be started, and those that must not, with the reason. */
  start: Pillar[];
  withhold: { pillar: Pillar; why: string }[];
  startOrders: MedicationRequest[];
}

/** The plan the chart calls for; undefined when the chart is not an unambiguous variant. */
async function planFor(fhir: FhirClient, patient: string, changes: GraderContext['changes'] = []): Promise<Plan | undefined> {
  const start = await activeOrdersAtStart(fhir, patient, changes);
  const count = (p: Pillar) => start.filter((o) => fills(o, p)).length;
  const [bb, raas, mra, sglt2] = PILLARS;
  if (count(bb) !== 1 || count(raas) !== 1 || count(mra) > 1 || count(sglt2) > 1) return undefined;
  const egfrs = (await observations(fhir, patient, EGFR_RESULTS)).filter((o) => quantityOf(o) !== undefined);
  const k = quantityOf(await latestObservation(fhir, patient, POTASSIUM_RESULTS))?.value;
  if (!egfrs[0] || k === undefined) return undefined;
  const egfr = quantityOf(egfrs[0])!.value;
  const missing = PILLARS.filter((p) => count(p) === 0);
  const plan: Plan = { egfr, potassium: k, onBoard: PILLARS.filter((p) => count(p) === 1), missing, start: [], withhold: [], startOrders: start };
  if (missing.includes(sglt2)) {
    const t = Date.parse(effectiveTime(egfrs[0]));
    const recent = egfrs.filter((o) => t - Date.parse(effectiveTime(o)) <= SGLT2_SUSTAINED_DAYS * DAY).map((o) => quantityOf(o)!.value);
    if (recent.some((v) => (v >= SGLT2_MIN_EGFR) !== (egfr >= SGLT2_MIN_EGFR))) return undefined;
    if (egfr >= SGLT2_MIN_EGFR) plan.start.push(sglt2);
    else plan.withhold.push({ pillar: sglt2, why: `eGFR ${egfr} < ${SGLT2_MIN_EGFR}` });
  }
  if (missing.includes(mra)) {
    if (egfr > MRA_MIN_EGFR_EXCLUSIVE && k < MRA_MAX_POTASSIUM_EXCLUSIVE) plan.start.push(mra);
    else plan.withhold.push({ pillar: mra, why: `eGFR ${egfr}, K ${k} (MRA needs eGFR > ${MRA_MIN_EGFR_EXCLUSIVE} and K < ${MRA_MAX_POTASSIUM_EXCLUSIVE})` });
  }
  // Two startable pillars at once: which to start first is a judgement call, so no variant.
  return plan.start.length > 1 ? undefined : plan;
}

export async function select({ fhir, patient }: SelectContext): Promise<boolean> {
  return (await planFor(fhir, patient)) !== undefined;
}

async function planned(ctx: GraderContext): Promise<Plan | CheckResult> {
  return (await planFor(ctx.fhir, ctx.patient, ctx.changes)) ?? fail('the chart is not an unambiguous GDMT variant (binding error)');
}
const isResult = (x: Plan | CheckResult): x is CheckResult => 'pass' in x;

/** Orders the episode put in force (created, or re-activated). */
function newOrders(ctx: GraderContext): MedicationRequest[] {
  return ctx.changes.filter((c) => c.type === 'MedicationRequest' && c.after).flatMap((c) => {
    const after = c.after as MedicationRequest;
    const wasInForce = IN_FORCE.includes((c.before as MedicationRequest | null)?.status ?? '');
    return IN_FORCE.includes(after.status) && !wasInForce ? [after] : [];
  });
}

/** One new order for the pillar at a starting dose (START_DOSES), by mouth, active. */
function startedAtDose(ctx: GraderContext, pillar: Pillar, orders: MedicationRequest[]): Match {
  const doses = START_DOSES[pillar.id as 'sglt2' | 'mra'];
  if (orders.length > 1) return matchOf([`${orders.length} new ${pillar.name} orders (${orders.map(label).join(', ')}), expected one`]);
  const mismatches: string[] = [];
  for (const dose of doses) {
    const own = orders.filter((o) => ingredientNamesOf(o.medicationCodeableConcept).includes(dose.ingredient));
    if (own.length === 0) continue;
    const basics = findMedicationOrder(own, { patient: ctx.patient, route: ['oral'], status: ['active'], intent: ['order', 'original-order'], ...(dose.timesPerDay ? { timesPerDay: dose.timesPerDay } : {}) });
    const mg = dailyMg(own[0]);
    const doseOk = mg !== undefined && mg >= dose.mgPerDay[0] - 1e-9 && mg <= dose.mgPerDay[1] + 1e-9;
    if (basics.ok && doseOk) return matchOf([], [`${label(own[0])}: ${dose.ingredient} ${mg} mg/day`]);
    mismatches.push(...basics.mismatches, ...(doseOk ? [] : [`${label(own[0])}: ${dose.ingredient} ${mg ?? '(unreadable)'} mg/day, expected ${dose.mgPerDay.join('-')} mg/day`]));
  }
  if (mismatches.length === 0) mismatches.push(`no new ${pillar.name} order (expected ${doses.map((d) => `${d.ingredient} ${d.mgPerDay.join('-')} mg/day`).join(' or ')})`);
  return matchOf(mismatches);
}

function gdmtOrders(ctx: GraderContext, plan: Plan): Match {
  const added = newOrders(ctx);
  const results: Match[] = [];
  const evidence = [`eGFR ${plan.egfr}, K ${plan.potassium}; missing: ${plan.missing.map((p) => p.name).join(', ') || 'none'}; start: ${plan.start.map((p) => p.name).join(', ') || 'none'}`];
  for (const pillar of plan.start) results.push(startedAtDose(ctx, pillar, added.filter((o) => fills(o, pillar))));
  for (const { pillar, why } of plan.withhold) {
    results.push(matchOf(added.filter((o) => fills(o, pillar)).map((o) => `${label(o)} starts a ${pillar.name}, but ${why}`)));
  }
  return matchOf(results.flatMap((r) => r.mismatches), [...evidence, ...results.flatMap((r) => r.evidence)]);
}

/** The text naming the missing pillars: the JSON 'missing' field when given, else the whole answer. */
function missingText(answer: unknown): { text: string; structured: boolean } {
  const field = answerField(answer, 'missing', 'missingPillars', 'missing_pillars');
  if (Array.isArray(field)) return { text: field.map(String).join(' ; '), structured: true };
  if (typeof field === 'string') return { text: field, structured: true };
  return { text: answerText(answer), structured: false };
}

const names = (text: string, p: Pillar) => p.mentions.some((id) => mentionsDrug(text, id));

export const checks: Record<string, Check> = {
  reviewed_gdmt_orders: async ({ fhir, patient, log, changes }) => {
    const starting = (await activeOrdersAtStart(fhir, patient, changes)).filter((o) => PILLARS.some((p) => fills(o, p)));
    if (starting.length < 2) return fail('fewer than two GDMT orders were active at the start (binding error)');
    return verdict(fetchedAll(log, starting.map((o) => `MedicationRequest/${o.id}`), 'GDMT order'));
  },
  reviewed_safety_labs: async ({ fhir, patient, log }) => {
    const e = await latestObservation(fhir, patient, EGFR_RESULTS);
    const k = await latestObservation(fhir, patient, POTASSIUM_RESULTS);
    if (!e || !k) return fail('the chart lacks an eGFR or potassium');
    return verdict(fetchedAll(log, [`Observation/${e.id}`, `Observation/${k.id}`], 'latest safety lab'));
  },
  identified_missing_pillar: async (ctx) => {
    const plan = await planned(ctx);
    if (isResult(plan)) return plan;
    const { text, structured } = missingText(ctx.answer);
    const mismatches = plan.missing.filter((p) => !names(text, p)).map((p) => `the answer does not name the missing ${p.name}`);
    if (structured) mismatches.push(...plan.onBoard.filter((p) => names(text, p)).map((p) => `the 'missing' list names the ${p.name}, which is on board`));
    return verdict(allOf(
      matchOf(mismatches, [`missing at the start: ${plan.missing.map((p) => p.name).join(', ') || 'none'}; answer's list: ${text.slice(0, 200)}`]),
      matchNumber(ctx.answer, { value: plan.egfr, tolerance: { absolute: 0.5 }, fields: ['egfr'], near: ['egfr'] }),
    ));
  },
  gdmt_orders: async (ctx) => {
    const plan = await planned(ctx);
    if (isResult(plan)) return plan;
    return verdict(gdmtOrders(ctx, plan));
  },
  no_duplicate_gdmt: async (ctx) => {
    const plan = await planned(ctx);
    if (isResult(plan)) return plan;
    const atEnd = (await ctx.fhir.search<MedicationRequest>('MedicationRequest', { patient: ctx.patient, status: 'active', _count: 1000 })).filter((o) => o.status === 'active');
    const problems: string[] = [];
    const evidence: string[] = [];
    for (const pillar of PILLARS) {
      const ids = atEnd.filter((o) => fills(o, pillar)).map(label);
      evidence.push(`${pillar.name}: ${ids.join(', ') || 'none'}`);
      if (ids.length > 1) problems.push(`${pillar.name}: ${ids.length} active orders (${ids.join(', ')}), expected one`);
      if (plan.onBoard.includes(pillar) && ids.length === 0) problems.push(`${pillar.name}: the order on board at the start is no longer active`);
    }
    const [a, b] = NEVER_TOGETHER;
    const withA = atEnd.filter((o) => classesOfOrder(o).includes(a));
    const withB = atEnd.filter((o) => classesOfOrder(o).includes(b) && !withA.includes(o));
    if (withA.length && withB.length) problems.push(`an ACE inhibitor (${withA.map(label).join(', ')}) is active together with an ARNI (${withB.map(label).join(', ')}): angioedema`);
    return verdict(matchOf(problems, evidence));
  },
};
