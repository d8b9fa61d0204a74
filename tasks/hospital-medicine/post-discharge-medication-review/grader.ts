// Grader: the discharge summary (the latest final Composition of type 18842-5) gives the discharge list and the drugs
// stopped in hospital; the orders active at the start (changes' "before" states) give the outpatient list. Each
// discharge drug and each stopped drug is classified (start, change, stop, continue) from the chart, and the orders at
// the end, the answer and the note are judged against that classification.
import type { Composition, MedicationRequest, MedicationStatement } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../contracts/task.ts';
import type { FhirClient } from '../../../contracts/fhir-client.ts';
import {
  allOf, answerProse, changeOf, dailyDose, drugIngredientNames, fail, fetchedAll, findEpisodeNote, fetchedActiveOrders, inCodeSet, isNoLongerActive,
  label, matchOf, matchRecommendation, medicationOrderStates, namesInTextFor, noteText, numbersIn, orderRoute, verdict, type Match,
} from '../../../graders/lib/index.ts';
import { DISCHARGE_MEDICATIONS_SECTION, DISCHARGE_SUMMARY, DOSE_TOLERANCE, STOPPED_STATUS, type Reconciliation } from './facts.ts';

interface Item {
  /** Ingredient names, sorted: the drug's identity across codes, brands and text. */
  drug: string[];
  name: string;
  /** Discharge daily dose in mg (undefined for a stopped drug). */
  mg?: number;
  action: Reconciliation;
  /** Orders of the drug active at the start. */
  orders: MedicationRequest[];
}

interface Plan { summary: Composition; items: Item[] }

const key = (names: string[]) => [...names].sort().join(' / ');
const drugOf = (o: MedicationRequest) => key(drugIngredientNames(o.medicationCodeableConcept));
const asOrder = (s: MedicationStatement): MedicationRequest => ({
  resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: s.subject, medicationCodeableConcept: s.medicationCodeableConcept, dosageInstruction: s.dosage,
});
const mgOf = (o: MedicationRequest) => dailyDose(o, 'mg');
const sameDose = (a: number | undefined, b: number | undefined) => a !== undefined && b !== undefined && Math.abs(a - b) <= DOSE_TOLERANCE * Math.max(a, b);
const sumMg = (orders: MedicationRequest[]) => orders.reduce<number | undefined>((t, o) => (t === undefined || mgOf(o) === undefined ? undefined : t + mgOf(o)!), 0);

/** The discharge list, the stopped drugs and what each requires; undefined when the chart has no discharge summary. */
async function planFor(fhir: FhirClient, patient: string, changes: GraderContext['changes'] = []): Promise<Plan | undefined> {
  const summaries = (await fhir.search<Composition>('Composition', { patient, _count: 100 }))
    .filter((c) => c.status === 'final' && inCodeSet(c.type, [{ system: DISCHARGE_SUMMARY.system, codes: [DISCHARGE_SUMMARY.code] }]))
    .sort((a, b) => Date.parse(b.date) - Date.parse(a.date));
  const summary = summaries[0];
  if (!summary) return undefined;
  const start = (await medicationOrderStates({ fhir, patient, changes })).atStart;
  const items: Item[] = [];
  for (const section of summary.section ?? []) {
    for (const entry of section.entry ?? []) {
      const id = entry.reference?.match(/^MedicationStatement\/(.+)$/)?.[1];
      if (!id) continue;
      const statement = await fhir.read<MedicationStatement>('MedicationStatement', id);
      const drug = drugIngredientNames(statement.medicationCodeableConcept);
      const orders = start.filter((o) => drugOf(o) === key(drug));
      const name = drug.join('/');
      const discharged = inCodeSet(section.code, [{ system: DISCHARGE_MEDICATIONS_SECTION.system, codes: [DISCHARGE_MEDICATIONS_SECTION.code] }]) && statement.status === 'active';
      if (discharged) {
        const mg = mgOf(asOrder(statement));
        const action: Reconciliation = orders.length === 0 ? 'start' : sameDose(sumMg(orders), mg) ? 'continue' : 'change';
        items.push({ drug, name, mg, action, orders });
      } else if (statement.status === STOPPED_STATUS && orders.length > 0) {
        items.push({ drug, name, action: 'stop', orders });
      }
    }
  }
  return { summary, items };
}

/** Variants: a discharge summary whose every discharge drug has a readable daily dose. */
export async function select({ fhir, patient }: SelectContext): Promise<boolean> {
  const plan = await planFor(fhir, patient);
  return !!plan && plan.items.length > 0 && plan.items.every((i) => i.action === 'stop' || i.mg !== undefined);
}

async function planned(ctx: GraderContext): Promise<Plan | CheckResult> {
  return (await planFor(ctx.fhir, ctx.patient, ctx.changes)) ?? fail('the chart holds no discharge summary (binding error)');
}
const isResult = (x: Plan | CheckResult): x is CheckResult => 'pass' in x;
const discrepancies = (plan: Plan) => plan.items.filter((i) => i.action !== 'continue');

/** Each difference fixed: stopped drugs no longer active (not deleted), new and changed drugs active at the discharge dose. */
function fixed(ctx: GraderContext, plan: Plan, atEnd: MedicationRequest[]): Match {
  const mismatches: string[] = [];
  const evidence: string[] = [];
  for (const item of discrepancies(plan)) {
    const active = atEnd.filter((o) => drugOf(o) === key(item.drug));
    if (item.action === 'stop') {
      for (const order of item.orders) {
        const change = changeOf(ctx.changes, 'MedicationRequest', order.id!);
        if (change?.action === 'deleted') mismatches.push(`${label(order)} (${item.name}) was deleted instead of stopped`);
      }
      if (active.length > 0) mismatches.push(`${item.name} was stopped in hospital but is still ordered (${active.map(label).join(', ')})`);
      else evidence.push(`${item.name}: no longer active (${item.orders.map((o) => `${label(o)} -> ${(changeOf(ctx.changes, 'MedicationRequest', o.id!)?.after as MedicationRequest | null)?.status ?? 'deleted'}`).join(', ')})`);
      continue;
    }
    if (active.length !== 1) {
      mismatches.push(`${item.name} (${item.action} to ${item.mg} mg/day): ${active.length} active orders at the end, expected one`);
      continue;
    }
    const mg = mgOf(active[0]);
    const route = orderRoute(active[0]);
    if (!sameDose(mg, item.mg)) mismatches.push(`${label(active[0])}: ${item.name} ${mg ?? '(unreadable)'} mg/day, the discharge summary says ${item.mg} mg/day`);
    else if (route.routes.length > 0 && !route.routes.includes('oral')) mismatches.push(`${label(active[0])}: route ${route.routes.join('/')}, the discharge summary says by mouth`);
    else evidence.push(`${item.name}: ${item.action} -> ${label(active[0])} ${mg} mg/day`);
  }
  if (discrepancies(plan).length === 0) evidence.push('the discharge list matched the orders: nothing to fix');
  return matchOf(mismatches, evidence);
}

/** Continued drugs untouched in substance, one active order per drug, nothing outside the discharge list started. */
function intact(plan: Plan, atEnd: MedicationRequest[], created: MedicationRequest[]): Match {
  const mismatches: string[] = [];
  for (const item of plan.items.filter((i) => i.action === 'continue')) {
    const active = atEnd.filter((o) => drugOf(o) === key(item.drug));
    if (active.length === 0) mismatches.push(`${item.name} continues unchanged at discharge but has no active order at the end (stopped in error)`);
    else if (!sameDose(sumMg(active), item.mg)) mismatches.push(`${item.name} continues at ${item.mg} mg/day but the active orders now give ${sumMg(active) ?? '(unreadable)'} mg/day`);
  }
  const byDrug = new Map<string, MedicationRequest[]>();
  for (const o of atEnd) byDrug.set(drugOf(o), [...(byDrug.get(drugOf(o)) ?? []), o]);
  for (const [drug, orders] of byDrug) if (orders.length > 1) mismatches.push(`${drug}: ${orders.length} active orders (${orders.map(label).join(', ')}), a duplicate`);
  const listed = new Set(plan.items.filter((i) => i.action !== 'stop').map((i) => key(i.drug)));
  for (const o of created.filter((x) => ['active', 'draft', 'on-hold'].includes(x.status))) {
    if (!listed.has(drugOf(o))) mismatches.push(`${label(o)} orders ${o.medicationCodeableConcept?.text ?? drugOf(o)}, which the discharge list does not hold`);
  }
  return matchOf(mismatches, [`${atEnd.length} active orders at the end checked`]);
}

/** A text names each discrepant drug; a stopped one is recommended against, a changed or new one quotes its dose. */
function namesChanges(text: string, plan: Plan, what: string): Match {
  const mismatches: string[] = [];
  const evidence: string[] = [];
  const items = discrepancies(plan);
  if (items.length === 0) {
    const says = /\bno (?:medication |med )?(?:discrepanc|differen|change)|\bnothing (?:to (?:change|fix|reconcile)|needed)|\b(?:match(?:es|ed)?|consistent with|agree(?:s|d)? with|in agreement)\b/i;
    return says.test(text) ? matchOf([], [`${what} states the lists agree`]) : matchOf([`${what} does not state that the discharge list and the orders agree (no discrepancy in this chart)`]);
  }
  for (const item of items) {
    const names = namesInTextFor(text, item.drug);
    if (!names.some((n) => text.toLowerCase().includes(n.toLowerCase()))) { mismatches.push(`${what} does not name ${item.name} (${item.action})`); continue; }
    if (item.action === 'stop') {
      const m = matchRecommendation(text, { subject: names, expected: 'against' });
      if (!m.ok) mismatches.push(`${what} about ${item.name}: ${m.mismatches[0]}`);
      else evidence.push(`${what}: ${item.name} stopped`);
    } else if (!numbersIn(text).some((n) => sameDose(n.value, item.mg) || (item.drug.length === 1 && n.value > 0 && [1, 2, 3, 4].some((k) => sameDose(n.value * k, item.mg))))) {
      mismatches.push(`${what} names ${item.name} but not its discharge dose (${item.mg} mg/day)`);
    } else evidence.push(`${what}: ${item.name} ${item.action} with its dose`);
  }
  return matchOf(mismatches, evidence);
}

export const checks: Record<string, Check> = {
  reviewed_discharge_summary: async (ctx) => {
    const plan = await planned(ctx);
    if (isResult(plan)) return plan;
    return verdict(fetchedAll(ctx.log, [`Composition/${plan.summary.id}`], 'discharge summary'));
  },
  reviewed_active_orders: async (ctx) => verdict(await fetchedActiveOrders(ctx)),
  answer_names_discrepancies: async (ctx) => {
    const plan = await planned(ctx);
    if (isResult(plan)) return plan;
    return verdict(namesChanges(answerProse(ctx.answer), plan, 'the answer'));
  },
  discrepancies_fixed: async (ctx) => {
    const plan = await planned(ctx);
    if (isResult(plan)) return plan;
    return verdict(fixed(ctx, plan, (await medicationOrderStates(ctx)).atEnd));
  },
  continued_drugs_intact: async (ctx) => {
    const plan = await planned(ctx);
    if (isResult(plan)) return plan;
    const states = await medicationOrderStates(ctx);
    return verdict(intact(plan, states.atEnd, states.created));
  },
  reconciliation_note: async (ctx) => {
    const plan = await planned(ctx);
    if (isResult(plan)) return plan;
    const found = findEpisodeNote(ctx.changes, ctx.patient, { minLength: 40 });
    if (!found.ok || !found.candidate) return verdict(found);
    return verdict(allOf(found, namesChanges(noteText(found.candidate), plan, 'the note')));
  },
};

