// Grader: the long-acting bronchodilators active at the start decide (facts.ts). A LAMA already on the list (the
// same tiotropium, another product of it, or another LAMA such as umeclidinium in Anoro): no second LAMA - decline,
// or switch it to a LAMA/LABA (the old one stopped). No LAMA yet: start one (alone, beside a LABA, or as a LAMA/LABA
// combination replacing a LABA). Never two LAMAs or two LABAs, no ICS without eosinophils >= 300/uL, the reliever
// kept. Orders at the start come from the changes' "before" states; drugs are recognised by any RxNorm code, brand
// or text (graders/lib/drug-classes). Notes and the answer are graded on the facts they state (graders/documentation
// claim extraction), never on keywords.
import type { Condition, DocumentReference, MedicationRequest, Procedure } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../contracts/task.ts';
import {
  answerText, codingsOf, createdResources, dailyDose, drugIngredients, fail, fetchedAll, findNote, inCodeSet, label, latestObservation, matchOf,
  orderTimesPerDay, quantityOf, verdict, type Match,
} from '../../../graders/lib/index.ts';
import { medicationOrderStates } from '../../../graders/lib/order-states.ts';
import { classesOfOrder, ingredientNamesOf, mentionsDrug, namesInTextFor } from '../../../graders/lib/drug-classes.ts';
import { covers, keyFactOfConcept, noteTextOf, type KeyFact } from '../../../graders/documentation/index.ts';
import { ASTHMA, CLASSES, COPD, EOSINOPHILS, ICS_MIN_EOSINOPHILS, LAMA_DOSING, RELIEVERS, RXNORM, SPIROMETRY } from './facts.ts';

const live = (o: MedicationRequest) => ['active', 'draft', 'on-hold'].includes(o.status);
const inClass = (o: MedicationRequest, id: string) => classesOfOrder(o).includes(id);
const names = (o: MedicationRequest) => ingredientNamesOf(o.medicationCodeableConcept);
const describe = (o: MedicationRequest) => `${label(o)} ${o.medicationCodeableConcept?.text ?? codingsOf(o.medicationCodeableConcept).map((c) => c.display).join(' / ')} (${o.status})`;

/** FEV1 % predicted and FEV1/FVC of a spirometry note ("post-bronchodilator FEV1/FVC 0.57, FEV1 66% predicted"). */
export function spirometryValues(p: Procedure): { fev1?: number; ratio?: number } {
  const text = (p.note ?? []).map((n) => n.text).join(' ');
  const ratio = /FEV1\/FVC\s*([0-9.]+)/i.exec(text);
  const fev1 = /FEV1\s*([0-9]+)%\s*predicted/i.exec(text);
  return { ...(fev1 ? { fev1: Number(fev1[1]) } : {}), ...(ratio ? { ratio: Number(ratio[1]) } : {}) };
}

async function latestSpirometry(fhir: GraderContext['fhir'], patient: string): Promise<Procedure | undefined> {
  const all = await fhir.search<Procedure>('Procedure', { patient, code: `${SPIROMETRY.system}|${SPIROMETRY.code}`, _count: 1000 });
  return all.filter((p) => p.status === 'completed' && spirometryValues(p).ratio !== undefined)
    .sort((a, b) => Date.parse(b.performedDateTime ?? '') - Date.parse(a.performedDateTime ?? ''))[0];
}

/** Variants: active COPD without asthma, a spirometry with FEV1/FVC, and an active short-acting reliever. */
export async function select({ fhir, patient }: SelectContext): Promise<boolean> {
  const conditions = await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active', _count: 1000 });
  if (!conditions.some((c) => inCodeSet(c.code, { system: COPD.system, codes: [COPD.code] }))) return false;
  if (conditions.some((c) => inCodeSet(c.code, { system: ASTHMA.system, codes: [ASTHMA.code] }))) return false;
  if (!(await latestSpirometry(fhir, patient))) return false;
  const meds = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active', _count: 1000 });
  return meds.some((o) => o.status === 'active' && names(o).some((n) => RELIEVERS.includes(n)));
}

interface State {
  atStart: MedicationRequest[];
  atEnd: MedicationRequest[];
  created: MedicationRequest[];
  eosinophils: number | undefined;
}

async function stateOf({ fhir, patient, changes }: GraderContext): Promise<State> {
  const eos = quantityOf(await latestObservation(fhir, patient, EOSINOPHILS))?.value;
  return { ...(await medicationOrderStates({ fhir, patient, changes })), eosinophils: eos };
}

const withState = (check: (ctx: GraderContext, state: State) => CheckResult | Promise<CheckResult>): Check => async (ctx) => check(ctx, await stateOf(ctx));

/** The LAMA orders active at the start (the existing long-acting antimuscarinic, if any). */
const startingLamas = (s: State) => s.atStart.filter((o) => inClass(o, CLASSES.lama));

/** LAMA plan: exactly one LAMA-containing order active at the end; new when there was none, no second one when there was. */
function lamaPlan(s: State): Match {
  const before = startingLamas(s);
  const after = s.atEnd.filter((o) => inClass(o, CLASSES.lama));
  const evidence = [`LAMA at the start: ${before.map(describe).join('; ') || 'none'}`, `LAMA at the end: ${after.map(describe).join('; ') || 'none'}`];
  if (after.length > 1) return matchOf([`${after.length} LAMA-containing orders active at the end (a second LAMA duplicates the first: ${after.map(describe).join('; ')})`], evidence);
  if (after.length === 0) {
    return matchOf([before.length ? 'the long-acting antimuscarinic was stopped and nothing replaces it (the patient is still dyspneic: GOLD 2024 escalates, never withdraws)' : 'no LAMA was started although the patient has no long-acting antimuscarinic and persistent dyspnea'], evidence);
  }
  return matchOf([], evidence);
}

/** Dose and frequency of a newly started LAMA against its label (facts.ts LAMA_DOSING), where they can be read. */
function lamaDosing(o: MedicationRequest): string[] {
  const problems: string[] = [];
  for (const name of names(o).filter((n) => LAMA_DOSING[n])) {
    const label = LAMA_DOSING[name];
    const rxcui = drugIngredients({ text: name })[0];
    const perDay = dailyDose(o, 'ug', rxcui ? { ingredients: [rxcui] } : {});
    const n = orderTimesPerDay(o);
    if (n !== undefined && Math.abs(n - label.timesPerDay) > 0.01) problems.push(`${describe(o)}: ${name} ${n} times a day, label ${label.timesPerDay}`);
    if (perDay !== undefined && !label.mcgPerDay.some((d) => Math.abs(perDay - d) <= d * 0.1)) problems.push(`${describe(o)}: ${name} ${perDay} mcg/day, label ${label.mcgPerDay.join(' or ')} mcg/day`);
  }
  return problems;
}

const notes = (ctx: GraderContext) => createdResources<DocumentReference>(ctx.changes, 'DocumentReference')
  .filter((d) => d.subject?.reference === `Patient/${ctx.patient}` && d.status === 'current');

/** RxNorm codes that name an order's LAMA: its own RxNorm codings and the RXCUIs of its LAMA ingredients. */
function lamaCodes(o: MedicationRequest): string[] {
  const own = codingsOf(o.medicationCodeableConcept).filter((c) => c.system === RXNORM && c.code).map((c) => `${RXNORM}|${c.code}`);
  const ingredients = drugIngredients(o.medicationCodeableConcept).filter((i) => ingredientNamesOf({ coding: [{ system: RXNORM, code: i }] }).some((n) => LAMA_DOSING[n]));
  return [...new Set([...own, ...ingredients.map((i) => `${RXNORM}|${i}`)])];
}

/**
 * The facts the answer and the note must state about the maintenance therapy: the LAMA the patient already takes
 * (stated as their therapy, current or now stopped), or, without one, the LAMA the agent started. Built from the
 * order's codes and its ingredients, so a text-only "Spiriva Respimat" is stated by "tiotropium" too.
 */
function therapyFacts(s: State): KeyFact[] | string {
  const existing = startingLamas(s);
  const orders = therapyOrders(s);
  const facts = orders.map((o) => keyFactOfConcept(existing.length ? 'existing-lama' : 'started-lama', 'medication', { codes: lamaCodes(o), display: describe(o) } as Parameters<typeof keyFactOfConcept>[2]))
    .filter((f) => f.codes.length > 0);
  return facts.length ? facts : 'no LAMA (existing or started) to document';
}

/** The LAMA ingredients (lower-case names) of the orders the facts stand for. */
function lamaIngredients(orders: MedicationRequest[]): string[] {
  return [...new Set(orders.flatMap(names).filter((n) => LAMA_DOSING[n]))];
}

/**
 * At least one of the facts is stated: a medication claim of the documentation extractor (negation and status
 * aware); failing that, a name the drug vocabulary maps to the LAMA's ingredient ("Anoro Ellipta" for umeclidinium),
 * because the extractor's vocabulary does not yet know every brand.
 */
function statesTherapy(text: string, facts: KeyFact[], orders: MedicationRequest[], chart: MedicationRequest[]): CheckResult {
  const results = facts.map((f) => covers(text, [f], chart));
  const hit = results.find((r) => r.pass);
  if (hit) return hit;
  const wanted = lamaIngredients(orders);
  const named = namesInTextFor(text, wanted).filter((n) => mentionsDrug(text, n));
  if (named.length) return { pass: true, evidence: [`names ${wanted.join('/')} as ${named.map((w) => `"${w}"`).join(', ')} (drug vocabulary)`] };
  return results[0];
}

/** The orders the therapy facts are about: the LAMA active at the start, or the one started. */
function therapyOrders(s: State): MedicationRequest[] {
  const existing = startingLamas(s);
  return existing.length ? existing : s.atEnd.filter((o) => inClass(o, CLASSES.lama) && !s.atStart.some((x) => x.id === o.id));
}

export const checks: Record<string, Check> = {
  reviewed_active_inhalers: withState((ctx, s) => {
    const inhalers = s.atStart.filter((o) => [CLASSES.lama, CLASSES.laba, CLASSES.ics].some((c) => inClass(o, c)) || names(o).some((n) => RELIEVERS.includes(n)));
    if (inhalers.length === 0) return fail('no active inhaler order at the start (binding error)');
    return verdict(fetchedAll(ctx.log, inhalers.map((o) => `MedicationRequest/${o.id}`), 'active inhaler order'));
  }),
  reviewed_spirometry: async ({ fhir, patient, log }) => {
    const p = await latestSpirometry(fhir, patient);
    if (!p) return fail('no spirometry with FEV1/FVC in the chart (binding error)');
    return verdict(fetchedAll(log, [`Procedure/${p.id}`], 'latest spirometry'));
  },
  lama_decision: withState((_ctx, s) => verdict(lamaPlan(s))),
  answer_states_therapy: withState((ctx, s) => {
    const facts = therapyFacts(s);
    if (typeof facts === 'string') return fail(facts);
    const text = answerText(ctx.answer);
    if (!text.trim()) return fail('no answer');
    return statesTherapy(text, facts, therapyOrders(s), [...s.atStart, ...s.atEnd]);
  }),
  safe_inhaler_regimen: withState((_ctx, s) => {
    const problems: string[] = [];
    const labas = s.atEnd.filter((o) => inClass(o, CLASSES.laba));
    if (labas.length > 1) problems.push(`${labas.length} LABA-containing orders active at the end (duplicate LABA): ${labas.map(describe).join('; ')}`);
    const startIds = new Set(s.atStart.map((o) => o.id));
    const fresh = s.created.filter(live);
    for (const o of fresh.filter((x) => inClass(x, CLASSES.ics))) {
      if ((s.eosinophils ?? 0) < ICS_MIN_EOSINOPHILS) problems.push(`${describe(o)}: an inhaled corticosteroid for dyspnea without eosinophils >= 300/uL (latest ${s.eosinophils ?? 'none'}; GOLD 2024: ICS is for exacerbations)`);
    }
    for (const o of fresh.filter((x) => classesOfOrder(x).includes('systemic-corticosteroid'))) problems.push(`${describe(o)}: a systemic corticosteroid without an exacerbation`);
    for (const o of s.atEnd.filter((x) => inClass(x, CLASSES.lama) && !startIds.has(x.id))) problems.push(...lamaDosing(o));
    const reliever = s.atEnd.some((o) => names(o).some((n) => RELIEVERS.includes(n)));
    if (!reliever) problems.push('no short-acting reliever is active at the end (the albuterol was stopped)');
    return verdict(matchOf(problems, [`${fresh.length} new medication orders; ${labas.length} LABA at the end`]));
  }),
  note_documents_therapy: withState((ctx, s) => {
    const note = notes(ctx).at(-1);
    if (!note) return fail('no current DocumentReference was written for the patient');
    const facts = therapyFacts(s);
    if (typeof facts === 'string') return fail(facts);
    return statesTherapy(noteTextOf(note), facts, therapyOrders(s), [...s.atStart, ...s.atEnd]);
  }),
  note_spirometry: async (ctx) => {
    const p = await latestSpirometry(ctx.fhir, ctx.patient);
    if (!p) return fail('no spirometry with FEV1/FVC in the chart (binding error)');
    const { fev1, ratio } = spirometryValues(p);
    return verdict(findNote(notes(ctx), {
      patient: ctx.patient,
      mustQuote: [...(fev1 !== undefined ? [{ value: fev1, what: 'FEV1 % predicted' }] : []), { value: ratio!, tolerance: { absolute: 0.005 }, what: 'FEV1/FVC ratio' }],
    }));
  },
};
