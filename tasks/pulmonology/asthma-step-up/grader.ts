// Grader: the chart decides (facts.ts). The latest Asthma Control Test and the inhaled corticosteroid's pharmacy fills
// give the decision - step up to an ICS-LABA when not well controlled despite adherence, otherwise no step up (well
// controlled: continue or step down; poor adherence: address it first). The orders at the start come from the
// changes' "before" states, the end state from the chart; drugs are recognised by class from any RxNorm code, brand
// or text (graders/lib/drug-classes). Notes are graded on what they recommend (direction, read with negation) and on
// the numbers they quote, never on keywords.
import type { Condition, DocumentReference, MedicationDispense, MedicationRequest, Observation, Patient, Procedure, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../contracts/task.ts';
import { orderAsNeeded,
  answerText, changeOf, codingsOf, createdResources, dailyDose, fail, fetchedAll, fetchedAny, findNote, findServiceRequest, inCodeSet, isNoLongerActive, label,
  matchOf, matchRecommendation, matchYesNo, ORDER_GROUPS, verdict, type Match,
} from '../../../graders/lib/index.ts';
import { medicationOrderStates, type MedicationOrderStates } from '../../../graders/lib/order-states.ts';
import { classesOfOrder, DRUG_CLASSES, ingredientNamesOf, namesInTextFor } from '../../../graders/lib/drug-classes.ts';
import { noteTextOf } from '../../../graders/documentation/index.ts';
import {
  ACT_MAX_AGE_DAYS, ACT_TOTAL, ACT_WELL_CONTROLLED_MIN, ADHERENCE_WINDOW_DAYS, ADHERENT_PDC, ASTHMA, CLASSES, COPD, MART_LABA, NOT_NEXT_STEP, POOR_PDC,
  RELIEVERS, SPIROMETRY, SPIROMETRY_CURRENT_DAYS, type ControllerDecision,
} from './facts.ts';

const DAY = 86_400_000;
const live = (o: MedicationRequest) => ['active', 'draft', 'on-hold'].includes(o.status);
const inClass = (o: MedicationRequest, id: string) => classesOfOrder(o).includes(id);
const names = (o: MedicationRequest) => ingredientNamesOf(o.medicationCodeableConcept);
const isIcsLaba = (o: MedicationRequest) => inClass(o, CLASSES.ics) && inClass(o, CLASSES.laba);
const isIcsOnly = (o: MedicationRequest) => inClass(o, CLASSES.ics) && !inClass(o, CLASSES.laba) && !inClass(o, CLASSES.lama);
const describe = (o: MedicationRequest) => `${label(o)} ${o.medicationCodeableConcept?.text ?? codingsOf(o.medicationCodeableConcept).map((c) => c.display).join(' / ')} (${o.status})`;

/** FEV1 % predicted of a spirometry note ("FEV1 72% predicted, ..."). */
export function fev1Of(p: Procedure): number | undefined {
  const m = /FEV1\s*([0-9]+(?:\.[0-9]+)?)\s*%\s*predicted/i.exec((p.note ?? []).map((n) => n.text).join(' '));
  return m ? Number(m[1]) : undefined;
}

async function latestSpirometry(fhir: GraderContext['fhir'], patient: string): Promise<Procedure | undefined> {
  const all = await fhir.search<Procedure>('Procedure', { patient, code: `${SPIROMETRY.system}|${SPIROMETRY.code}`, _count: 1000 });
  return all.filter((p) => p.status === 'completed' && fev1Of(p) !== undefined)
    .sort((a, b) => Date.parse(b.performedDateTime ?? '') - Date.parse(a.performedDateTime ?? ''))[0];
}

async function latestAct(fhir: GraderContext['fhir'], patient: string, now: string): Promise<Observation | undefined> {
  const all = await fhir.search<Observation>('Observation', { patient, code: `${ACT_TOTAL.system}|${ACT_TOTAL.code}`, _count: 1000 });
  return all.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined && Date.parse(now) - Date.parse(o.effectiveDateTime ?? '') <= ACT_MAX_AGE_DAYS * DAY)
    .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0];
}

/** Dispenses of an inhaled corticosteroid in the adherence window, and the proportion of days they cover. */
async function icsAdherence(fhir: GraderContext['fhir'], patient: string, now: string): Promise<{ dispenses: MedicationDispense[]; pdc: number }> {
  const end = Date.parse(now);
  const start = end - ADHERENCE_WINDOW_DAYS * DAY;
  const all = await fhir.search<MedicationDispense>('MedicationDispense', { patient, _count: 1000 });
  const ics = all.filter((d) => d.status === 'completed' && ingredientNamesOf(d.medicationCodeableConcept).some((n) => ['fluticasone', 'budesonide', 'beclomethasone', 'mometasone', 'ciclesonide'].includes(n)));
  const covered = new Set<number>();
  for (const d of ics) {
    const from = Date.parse(d.whenHandedOver ?? '');
    const days = d.daysSupply?.value ?? 0;
    for (let i = 0; i < days; i++) {
      const t = from + i * DAY;
      if (t >= start && t < end) covered.add(Math.floor((t - start) / DAY));
    }
  }
  return { dispenses: ics.filter((d) => Date.parse(d.whenHandedOver ?? '') + (d.daysSupply?.value ?? 0) * DAY >= start), pdc: covered.size / ADHERENCE_WINDOW_DAYS };
}

interface Chart {
  act: Observation;
  pdc: number;
  dispenses: MedicationDispense[];
  decision: ControllerDecision;
  spirometry: Procedure;
  spirometryCurrent: boolean;
}

async function chartOf(fhir: GraderContext['fhir'], patient: string, now: string): Promise<Chart | string> {
  const act = await latestAct(fhir, patient, now);
  const spirometry = await latestSpirometry(fhir, patient);
  if (!act || !spirometry) return 'the chart lacks a recent Asthma Control Test or a spirometry (binding error)';
  const { pdc, dispenses } = await icsAdherence(fhir, patient, now);
  const score = act.valueQuantity!.value!;
  const decision: ControllerDecision | undefined = score >= ACT_WELL_CONTROLLED_MIN ? 'continue' : pdc >= ADHERENT_PDC ? 'step-up' : pdc <= POOR_PDC ? 'adherence-first' : undefined;
  if (!decision) return `ACT ${score} with adherence ${pdc.toFixed(2)} is in the band the task has no variant for (binding error)`;
  const spirometryCurrent = Date.parse(now) - Date.parse(spirometry.performedDateTime ?? '') <= SPIROMETRY_CURRENT_DAYS * DAY;
  return { act, pdc, dispenses, decision, spirometry, spirometryCurrent };
}

/** Variants: age >= 12, active asthma without COPD, an active fluticasone-only order, a recent ACT, a spirometry, and a
 * clear decision (ACT >= 20, or ACT <= 19 with clearly good or clearly poor adherence). */
export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  const p = await fhir.read<Patient>('Patient', patient);
  if (!p.birthDate || p.deceasedBoolean || p.deceasedDateTime || (Date.parse(now) - Date.parse(p.birthDate)) / (365.25 * DAY) < 12) return false;
  const conditions = await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active', _count: 1000 });
  if (!conditions.some((c) => inCodeSet(c.code, { system: ASTHMA.system, codes: [ASTHMA.code] }))) return false;
  if (conditions.some((c) => inCodeSet(c.code, { system: COPD.system, codes: [COPD.code] }))) return false;
  const meds = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active', _count: 1000 });
  if (!meds.some((o) => o.status === 'active' && isIcsOnly(o) && names(o).includes('fluticasone'))) return false;
  return typeof (await chartOf(fhir, patient, now)) !== 'string';
}


const withChart = (check: (ctx: GraderContext, chart: Chart, orders: MedicationOrderStates) => CheckResult | Promise<CheckResult>): Check => async (ctx) => {
  const chart = await chartOf(ctx.fhir, ctx.patient, ctx.now);
  return typeof chart === 'string' ? fail(chart) : check(ctx, chart, await medicationOrderStates(ctx));
};

const icsDaily = (orders: MedicationRequest[]) => orders.reduce<number | undefined>((sum, o) => {
  const mcg = dailyDose(o, 'ug');
  return sum === undefined || mcg === undefined ? undefined : sum + mcg;
}, 0);

/** Step up: an ICS-LABA single inhaler newly active, and the fluticasone-only order retired (or changed in place). */
function stepUpPlan(ctx: GraderContext, orders: MedicationOrderStates): Match {
  const startIcs = orders.atStart.filter(isIcsOnly);
  const newCombos = orders.atEnd.filter((o) => isIcsLaba(o) && !orders.atStart.some((s) => s.id === o.id && isIcsLaba(s)));
  const mismatches: string[] = [];
  if (newCombos.length === 0) mismatches.push(`not well controlled despite adherence, yet no ICS-LABA inhaler is active at the end (orders: ${orders.atEnd.filter((o) => inClass(o, CLASSES.ics) || inClass(o, CLASSES.laba)).map(describe).join('; ') || 'none'})`);
  for (const o of startIcs) {
    const change = changeOf(ctx.changes, 'MedicationRequest', o.id!);
    const after = change ? (change.after as MedicationRequest | null) : o;
    if (after && after.status === 'active' && isIcsLaba(after)) continue;
    if (change?.action === 'deleted' || !after) mismatches.push(`${label(o)} (ICS alone) was deleted instead of stopped`);
    else if (!isNoLongerActive(after, { allowHold: true })) mismatches.push(`${describe(after)}: the ICS-only order is still active beside the ICS-LABA`);
  }
  return matchOf(mismatches, [`step up: ${newCombos.map(describe).join('; ')}`]);
}

/** No step up: no LABA-containing order started, the ICS still active, at no higher dose (lower only when well controlled). */
function noStepUpPlan(orders: MedicationOrderStates, decision: ControllerDecision): Match {
  const mismatches: string[] = [];
  const newLaba = orders.atEnd.filter((o) => inClass(o, CLASSES.laba) && !orders.atStart.some((s) => s.id === o.id && inClass(s, CLASSES.laba)));
  for (const o of newLaba) mismatches.push(`${describe(o)}: a LABA added although ${decision === 'continue' ? 'the asthma is well controlled' : 'adherence and technique come first (GINA: check them before any step up)'}`);
  const startIcs = orders.atStart.filter((o) => inClass(o, CLASSES.ics));
  const endIcs = orders.atEnd.filter((o) => inClass(o, CLASSES.ics));
  if (endIcs.length === 0) mismatches.push('no inhaled corticosteroid is active at the end (GINA: never stop the ICS in adults and adolescents)');
  const before = icsDaily(startIcs);
  const after = icsDaily(endIcs);
  if (endIcs.length && (before === undefined || after === undefined)) mismatches.push(`the inhaled corticosteroid dose cannot be read (${endIcs.map(describe).join('; ')})`);
  else if (before !== undefined && after !== undefined) {
    if (after > before + 1e-6) mismatches.push(`inhaled corticosteroid raised from ${before} to ${after} mcg/day`);
    if (decision === 'adherence-first' && after < before - 1e-6) mismatches.push(`inhaled corticosteroid lowered from ${before} to ${after} mcg/day in asthma that is not well controlled`);
  }
  return matchOf(mismatches, [`no step up (${decision}): ICS ${before ?? '?'} -> ${after ?? '?'} mcg/day`]);
}

const notes = (ctx: GraderContext) => createdResources<DocumentReference>(ctx.changes, 'DocumentReference')
  .filter((d) => d.subject?.reference === `Patient/${ctx.patient}` && d.status === 'current');

/** Long-acting beta-2 agonists (graders/lib/drug-classes.ts). */
const LABAS = DRUG_CLASSES.get('laba')!.ingredients;

const SPIROMETRY_NAMES = ['spirometry', 'pulmonary function test', 'pulmonary function tests', 'pulmonary function testing', 'PFT', 'PFTs', 'lung function test', 'lung function tests', 'lung function testing'];

export const checks: Record<string, Check> = {
  reviewed_controller: withChart((ctx, _chart, orders) => {
    const start = orders.atStart.filter((o) => inClass(o, CLASSES.ics));
    if (start.length === 0) return fail('no active inhaled corticosteroid at the start (binding error)');
    return verdict(fetchedAll(ctx.log, start.map((o) => `MedicationRequest/${o.id}`), 'active inhaled corticosteroid order'));
  }),
  reviewed_control_and_adherence: withChart(async (ctx, chart) => {
    // Adherence is in the pharmacy fills and in the latest visit note (which records use and technique): either will do.
    const created = new Set(createdResources<DocumentReference>(ctx.changes, 'DocumentReference').map((d) => d.id));
    const visitNote = (await ctx.fhir.search<DocumentReference>('DocumentReference', { patient: ctx.patient, _count: 1000 }))
      .filter((d) => !created.has(d.id) && Date.parse(d.date ?? '') <= Date.parse(ctx.now))
      .sort((a, b) => Date.parse(b.date ?? '') - Date.parse(a.date ?? ''))[0];
    const adherenceSources = [...chart.dispenses.map((d) => `MedicationDispense/${d.id}`), ...(visitNote ? [`DocumentReference/${visitNote.id}`] : [])];
    return verdict(matchOf([
      ...fetchedAll(ctx.log, [`Observation/${chart.act.id}`], 'latest Asthma Control Test').mismatches,
      ...fetchedAny(ctx.log, adherenceSources, 'inhaled corticosteroid pharmacy fills or the latest visit note').mismatches,
    ], [`ACT ${chart.act.valueQuantity?.value}, adherence (PDC) ${chart.pdc.toFixed(2)}: ${chart.decision}`]));
  }),
  reviewed_spirometry: withChart((ctx, chart) => verdict(fetchedAll(ctx.log, [`Procedure/${chart.spirometry.id}`], 'latest spirometry'))),
  control_assessment: withChart((ctx, chart) => verdict(matchYesNo(ctx.answer, chart.decision === 'continue', {
    fields: ['wellControlled', 'controlled'],
    yes: ['well controlled', 'well-controlled', 'good control', 'controlled asthma'],
    no: ['not well controlled', 'not well-controlled', 'uncontrolled', 'poorly controlled', 'not controlled', 'partly controlled', 'partially controlled', 'suboptimal control', 'suboptimally controlled', 'inadequately controlled', 'poor control'],
  }))),
  controller_decision: withChart((ctx, chart, orders) => verdict(chart.decision === 'step-up' ? stepUpPlan(ctx, orders) : noStepUpPlan(orders, chart.decision))),
  no_overtreatment: withChart((_ctx, _chart, orders) => {
    const problems: string[] = [];
    const fresh = orders.created.filter(live);
    for (const o of fresh) {
      if (inClass(o, CLASSES.lama)) problems.push(`${describe(o)}: a LAMA (GINA step 5 add-on, after medium/high-dose ICS-LABA)`);
      if (inClass(o, CLASSES.steroid)) problems.push(`${describe(o)}: a systemic corticosteroid without an exacerbation`);
      const other = names(o).filter((n) => NOT_NEXT_STEP.includes(n));
      if (other.length) problems.push(`${describe(o)}: ${other.join(', ')} is not the next GINA step from medium-dose ICS`);
    }
    for (const o of orders.atEnd.filter((x) => inClass(x, CLASSES.laba) && !inClass(x, CLASSES.ics))) problems.push(`${describe(o)}: a LABA without an inhaled corticosteroid in the same inhaler (FDA boxed warning)`);
    const ics = orders.atEnd.filter((o) => inClass(o, CLASSES.ics));
    if (ics.length > 1) problems.push(`${ics.length} inhaled corticosteroid orders active together: ${ics.map(describe).join('; ')}`);
    const reliever = orders.atEnd.some((o) => names(o).some((n) => RELIEVERS.includes(n)))
      || orders.atEnd.some((o) => isIcsLaba(o) && names(o).some((n) => MART_LABA.includes(n)) && orderAsNeeded(o));
    if (!reliever) problems.push('no reliever at the end (albuterol stopped without ICS-formoterol as needed)');
    return verdict(matchOf(problems, [`${fresh.length} new medication orders checked`]));
  }),
  lung_function_current: withChart((ctx, chart) => {
    const fev1 = fev1Of(chart.spirometry)!;
    const when = (chart.spirometry.performedDateTime ?? '').slice(0, 10);
    if (chart.spirometryCurrent) {
      return verdict(findNote(notes(ctx), { patient: ctx.patient, status: ['current'], mustQuote: [{ value: fev1, what: `FEV1 % predicted of the ${when} spirometry` }] }));
    }
    const ordered = findServiceRequest(createdResources<ServiceRequest>(ctx.changes, 'ServiceRequest'), {
      patient: ctx.patient, group: ORDER_GROUPS.spirometry, status: ['active'], intent: ['order', 'original-order', 'instance-order'],
    });
    if (ordered.ok) return verdict(ordered);
    const texts = [...notes(ctx).map(noteTextOf), answerText(ctx.answer)];
    const said = texts.map((t) => matchRecommendation(t, { subject: SPIROMETRY_NAMES, expected: 'recommend' }));
    const hit = said.find((m) => m.ok);
    return verdict(hit ?? matchOf([`the latest spirometry is from ${when} (older than 2 years): repeat spirometry is neither ordered nor recommended`, ...said.flatMap((m) => m.mismatches)]));
  }),
  note_plan: withChart((ctx, chart, orders) => {
    const note = notes(ctx).at(-1);
    if (!note) return fail('no current DocumentReference was written for the patient');
    const text = noteTextOf(note);
    if (chart.decision === 'step-up') {
      const labas = [...new Set(orders.atEnd.filter(isIcsLaba).flatMap(names).filter((n) => LABAS.includes(n)))];
      if (labas.length === 0) return fail('no ICS-LABA was ordered to document');
      return verdict(matchRecommendation(text, { subject: namesInTextFor(text, labas), expected: 'recommend' }));
    }
    const against = matchRecommendation(text, { subject: namesInTextFor(text, LABAS).concat(['LABA', 'ICS-LABA', 'ICS/LABA']), expected: 'recommend' });
    return verdict(against.ok ? matchOf([`no step up is due (${chart.decision}), yet the note recommends a LABA`, ...against.evidence]) : matchOf([], ['the note does not recommend adding a LABA']));
  }),
};
