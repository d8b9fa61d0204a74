// Grader: the decision (start / continue / do not start an SGLT2 inhibitor) is computed from the chart as it was at the
// start with facts.ts (KDIGO 2024 chapter 3.7); the new orders come from the changes; the answer and the note are read
// for their direction; the note's key facts come from the chart and are checked with covers and grounded.
import type { Condition, DocumentReference, MedicationRequest, Observation, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../contracts/task.ts';
import type { FhirClient } from '../../../contracts/fhir-client.ts';
import { activeOrdersAtStart,
  allOf, codingsOf, createdResources, effectiveTime, fail, fetchedAll, findMedicationOrder, findServiceRequest, ICD10CM, inCodeSet, label,
  latestObservation, matchOf, matchRecommendation, matchYesNo, observations, ORDER_GROUPS, quantityOf, SNOMED, verdict, type Match,
} from '../../../graders/lib/index.ts';
import { classesOfOrder, ingredientNamesOf, namesInTextFor } from '../../../graders/lib/drug-classes.ts';
import { answerText, noteText } from '../../../graders/lib/index.ts';
import { chartFromFhir, covers, grounded, keyFactOf, keyFactOfConcept, vocabulary, type KeyFact } from '../../../graders/documentation/index.ts';
import {
  ALBUMINURIA_INDICATION_MG_G, CKD_PROBLEMS, EGFR_RESULTS, HEART_FAILURE, KIDNEY_SGLT2, POTASSIUM_RESULTS, RAAS_CLASSES, SGLT2_CLASS,
  START_MIN_EGFR, SUSTAINED_DAYS, TYPE_1_DIABETES, TYPE_2_DIABETES, UACR_DUE_WITHIN_DAYS, UACR_RESULTS,
} from './facts.ts';

const DAY = 86_400_000;
const IN_FORCE = ['active', 'draft', 'on-hold'];
const isSglt2 = (o: MedicationRequest) => classesOfOrder(o).includes(SGLT2_CLASS);
const isRaas = (o: MedicationRequest) => classesOfOrder(o).some((c) => RAAS_CLASSES.includes(c));

type Decision = { kind: 'start' | 'continue' | 'not-start'; why: string; t2d: boolean; egfr: number; onAtStart: MedicationRequest[] };


function hasProblem(conditions: Condition[], set: { snomed: string[]; icd10Prefixes: string[] }): boolean {
  return conditions.some((c) => codingsOf(c.code).some((x) => (x.system === SNOMED && set.snomed.includes(x.code ?? ''))
    || (x.system === ICD10CM && set.icd10Prefixes.some((p) => (x.code ?? '').startsWith(p)))));
}

/** KDIGO 2024 chapter 3.7 on the chart; undefined when the chart is not an unambiguous variant. */
async function decisionFor(fhir: FhirClient, patient: string, changes: GraderContext['changes'] = []): Promise<Decision | undefined> {
  const start = await activeOrdersAtStart(fhir, patient, changes);
  const conditions = await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active', _count: 1000 });
  const egfrs = (await observations(fhir, patient, EGFR_RESULTS)).filter((o) => quantityOf(o) !== undefined);
  const latest = egfrs[0];
  if (!latest) return undefined;
  const egfr = quantityOf(latest)!.value;
  const t2d = hasProblem(conditions, TYPE_2_DIABETES);
  const base = { t2d, egfr, onAtStart: start.filter(isSglt2) };
  if (base.onAtStart.length > 0) return { ...base, kind: 'continue', why: `already on ${base.onAtStart.map(label).join(', ')} (KDIGO 2024 PP 3.7.1: continue)` };
  if (hasProblem(conditions, TYPE_1_DIABETES)) return { ...base, kind: 'not-start', why: 'type 1 diabetes (not recommended: ketoacidosis)' };
  const t = Date.parse(effectiveTime(latest));
  const recent = egfrs.filter((o) => t - Date.parse(effectiveTime(o)) <= SUSTAINED_DAYS * DAY);
  if (recent.some((o) => (quantityOf(o)!.value >= START_MIN_EGFR) !== (egfr >= START_MIN_EGFR))) return undefined;
  if (egfr < START_MIN_EGFR) return { ...base, kind: 'not-start', why: `eGFR ${egfr} < ${START_MIN_EGFR} on every result of the last ${SUSTAINED_DAYS} days` };
  const uacr = quantityOf(await latestObservation(fhir, patient, UACR_RESULTS))?.value;
  const reasons = [t2d && 'type 2 diabetes', hasProblem(conditions, HEART_FAILURE) && 'heart failure', uacr !== undefined && uacr >= ALBUMINURIA_INDICATION_MG_G && `ACR ${uacr} mg/g`].filter(Boolean);
  if (reasons.length === 0) return undefined;
  return { ...base, kind: 'start', why: `eGFR ${egfr} >= ${START_MIN_EGFR} with ${reasons.join(', ')} (KDIGO 2024 rec. 3.7.1/3.7.2)` };
}

export async function select({ fhir, patient }: SelectContext): Promise<boolean> {
  const start = await activeOrdersAtStart(fhir, patient, []);
  if (!start.some(isRaas)) return false;
  return (await decisionFor(fhir, patient)) !== undefined;
}

async function latestLabs({ fhir, patient }: Pick<GraderContext, 'fhir' | 'patient'>) {
  return { egfr: await latestObservation(fhir, patient, EGFR_RESULTS), uacr: await latestObservation(fhir, patient, UACR_RESULTS), k: await latestObservation(fhir, patient, POTASSIUM_RESULTS) };
}

/** SGLT2 inhibitor orders the episode put in force (created, or re-activated). */
function newSglt2Orders(ctx: GraderContext): MedicationRequest[] {
  return ctx.changes.filter((c) => c.type === 'MedicationRequest' && c.after).flatMap((c) => {
    const after = c.after as MedicationRequest;
    const wasInForce = IN_FORCE.includes((c.before as MedicationRequest | null)?.status ?? '');
    return IN_FORCE.includes(after.status) && !wasInForce && isSglt2(after) ? [after] : [];
  });
}

/** The new order matches an agent with kidney-outcome evidence at its dose, once daily by mouth. */
function kidneyDoseOrder(ctx: GraderContext, decision: Decision, orders: MedicationRequest[]): Match<MedicationRequest> {
  const eligible = KIDNEY_SGLT2.filter((a) => a.needsT2dAndMinEgfr === undefined || (decision.t2d && decision.egfr >= a.needsT2dAndMinEgfr));
  const results = eligible.map((agent) => findMedicationOrder(orders.filter((o) => ingredientNamesOf(o.medicationCodeableConcept).includes(agent.ingredient)), {
    patient: ctx.patient, dose: { value: agent.mgDaily, unit: 'mg' }, timesPerDay: 1, route: ['oral'], status: ['active'], intent: ['order', 'original-order'],
  }));
  const hit = results.find((r) => r.ok);
  if (hit) return hit;
  return matchOf([`no new order for ${eligible.map((a) => `${a.ingredient} ${a.mgDaily} mg once daily`).join(' or ')}`, ...results.flatMap((r) => r.mismatches.filter((m) => !m.startsWith('no MedicationRequest')))]);
}

function sglt2Decision(ctx: GraderContext, decision: Decision, atEnd: MedicationRequest[]): Match {
  const added = newSglt2Orders(ctx);
  const evidence = [`decision: ${decision.kind} - ${decision.why}`, ...added.map((o) => `new ${label(o)}: ${ingredientNamesOf(o.medicationCodeableConcept).join('/')}`)];
  if (decision.kind === 'start') {
    if (added.length > 1) return matchOf([`${added.length} SGLT2 inhibitor orders started (${added.map(label).join(', ')}), expected one`], evidence);
    const m = kidneyDoseOrder(ctx, decision, added);
    return matchOf(m.mismatches, [...evidence, ...m.evidence]);
  }
  const mismatches = added.map((o) => `${label(o)} starts an SGLT2 inhibitor, but ${decision.why}`);
  if (decision.kind === 'continue') {
    const still = atEnd.filter((o) => o.status === 'active' && isSglt2(o));
    if (still.length === 0) mismatches.push(`the SGLT2 inhibitor the patient was on (${decision.onAtStart.map(label).join(', ')}) is no longer active; it should be continued`);
  }
  return matchOf(mismatches, evidence);
}

/**
 * The key fact of a drug order. keyFactOf knows an order by its codings; a text-only order ("empagliflozin 10 mg
 * tablet") gets the concept the documentation vocabulary recognises in its text, so a note naming the drug covers it.
 */
function drugFact(order: MedicationRequest, id: string): KeyFact {
  const fact = keyFactOf(order, { id });
  if (fact.codes.length > 0) return fact;
  const mention = vocabulary().find(order.medicationCodeableConcept?.text ?? '').find((m) => m.kind === 'medication');
  return mention ? keyFactOfConcept(id, 'medication', mention, { status: fact.status, source: fact.source }) : fact;
}

const notes = (ctx: GraderContext) => createdResources<DocumentReference>(ctx.changes, 'DocumentReference')
  .filter((d) => d.subject?.reference === `Patient/${ctx.patient}` && d.status === 'current');

async function decided(ctx: GraderContext): Promise<Decision | CheckResult> {
  const decision = await decisionFor(ctx.fhir, ctx.patient, ctx.changes);
  return decision ?? fail('the chart gives no unambiguous SGLT2 inhibitor decision (binding error)');
}
const isResult = (x: Decision | CheckResult): x is CheckResult => 'pass' in x;

export const checks: Record<string, Check> = {
  reviewed_kidney_labs: async (ctx) => {
    const { egfr, uacr, k } = await latestLabs(ctx);
    if (!egfr || !uacr || !k) return fail('the chart lacks an eGFR, UACR or potassium (binding error)');
    const sglt2 = (await activeOrdersAtStart(ctx.fhir, ctx.patient, ctx.changes)).filter(isSglt2);
    return verdict(allOf(
      fetchedAll(ctx.log, [egfr, uacr, k].map((o) => `Observation/${o.id}`), 'latest kidney lab'),
      fetchedAll(ctx.log, sglt2.map((o) => `MedicationRequest/${o.id}`), 'active SGLT2 inhibitor order'),
    ));
  },
  sglt2_decision: async (ctx) => {
    const decision = await decided(ctx);
    if (isResult(decision)) return decision;
    const atEnd = await ctx.fhir.search<MedicationRequest>('MedicationRequest', { patient: ctx.patient, _count: 1000 });
    return verdict(sglt2Decision(ctx, decision, atEnd));
  },
  raas_kept: async (ctx) => {
    const start = (await activeOrdersAtStart(ctx.fhir, ctx.patient, ctx.changes)).filter(isRaas);
    if (!start.length) return fail('no active ACE inhibitor/ARB at the start (binding error)');
    const now = (await ctx.fhir.search<MedicationRequest>('MedicationRequest', { patient: ctx.patient, status: 'active', _count: 1000 })).filter((o) => o.status === 'active' && isRaas(o));
    return verdict(matchOf(now.length ? [] : [`the ACE inhibitor/ARB (${start.map(label).join(', ')}) is no longer active`], now.map((o) => `${label(o)} active`)));
  },
  uacr_ordered: (ctx) => {
    const due = Date.parse(ctx.now) + UACR_DUE_WITHIN_DAYS * DAY;
    const orders = createdResources<ServiceRequest>(ctx.changes, 'ServiceRequest');
    const timely = orders.filter((o) => { const at = o.occurrenceDateTime ?? o.occurrencePeriod?.start; return at === undefined || Date.parse(at) <= due; });
    const m = findServiceRequest(timely, { patient: ctx.patient, group: ORDER_GROUPS.urineAlbuminCreatinine, status: ['active'], intent: ['order', 'original-order', 'instance-order'] });
    return verdict(m.ok ? m : matchOf([...m.mismatches, ...orders.filter((o) => !timely.includes(o)).map((o) => `${label(o)} is due after ${UACR_DUE_WITHIN_DAYS} days`)]));
  },
  decision_stated: async (ctx) => {
    const decision = await decided(ctx);
    if (isResult(decision)) return decision;
    const yes = decision.kind !== 'not-start';
    const answer = matchYesNo(ctx.answer, yes, {
      fields: ['sglt2', 'sglt2i', 'sglt2Inhibitor', 'shouldBeOnSglt2', 'startSglt2', 'onSglt2', 'indicated'], yes: ['indicated', 'should be on'], no: ['not indicated', 'not a candidate'],
      subject: namesInTextFor(answerText(ctx.answer), [SGLT2_CLASS]),
    });
    const note = notes(ctx).at(-1);
    const noteMatch = note ? matchRecommendation(note, { subject: namesInTextFor(noteText(note), [SGLT2_CLASS]), expected: yes ? 'recommend' : 'against' })
      : matchOf(['no current DocumentReference was written for the patient']);
    return verdict(allOf(matchOf(answer.mismatches, [`decision: ${decision.kind} - ${decision.why}`, ...answer.evidence]), { ...noteMatch, mismatches: noteMatch.mismatches.map((m) => `note: ${m}`) }));
  },
  note_covers_key_facts: async (ctx): Promise<CheckResult> => {
    const note = notes(ctx).at(-1);
    if (!note) return fail('no current DocumentReference was written for the patient');
    const decision = await decided(ctx);
    if (isResult(decision)) return decision;
    const { egfr, uacr, k } = await latestLabs(ctx);
    const ckd = (await ctx.fhir.search<Condition>('Condition', { patient: ctx.patient, 'clinical-status': 'active', _count: 1000 })).find((c) => inCodeSet(c.code, CKD_PROBLEMS));
    const raas = (await activeOrdersAtStart(ctx.fhir, ctx.patient, ctx.changes)).filter(isRaas)[0];
    if (!egfr || !uacr || !k || !ckd || !raas) return fail('the chart lacks a key fact (binding error)');
    const facts = [keyFactOf(egfr, { id: 'latest-egfr' }), keyFactOf(uacr as Observation, { id: 'latest-uacr' }), keyFactOf(k, { id: 'latest-potassium' }), keyFactOf(ckd, { id: 'ckd' }), keyFactOf(raas, { id: 'ace-inhibitor-or-arb' })];
    const sglt2 = decision.kind === 'start' ? kidneyDoseOrder(ctx, decision, newSglt2Orders(ctx)).candidate : decision.kind === 'continue' ? decision.onAtStart[0] : undefined;
    if (decision.kind === 'start' && !sglt2) return fail('no SGLT2 inhibitor order to document');
    if (sglt2) facts.push(drugFact(sglt2, 'sglt2-inhibitor'));
    return covers(note, facts, await chartFromFhir(ctx.fhir, ctx.patient));
  },
  note_grounded: async (ctx): Promise<CheckResult> => {
    const note = notes(ctx).at(-1);
    if (!note) return fail('no current DocumentReference was written for the patient');
    return grounded(note, await chartFromFhir(ctx.fhir, ctx.patient), { maxUnsupported: 0 });
  },
};
