// Grader: the radiology reports decide. The latest report stating a nodule is the index; its mean diameter and type
// and, for a solid nodule, any earlier report showing it unchanged 2+ years before, with the smoking history for
// the smallest solid nodules, give the Fleischner 2017 plan: no routine follow-up, a CT at 6-12 months (or an
// optional one at 12), or for a solid nodule > 8 mm PET/CT, a CT at 3 months or tissue sampling (referral). The
// imaging orders the agent wrote must fit that plan and its timing; the answer and the note must state it.
import type { Condition, DiagnosticReport, DocumentReference, Observation, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../contracts/task.ts';
import type { FhirClient } from '../../../contracts/fhir-client.ts';
import {
  allOf, answerField, answerText, codingsOf, createdResources, datesIn, fail, fetchedAll, matchNumber, matchOf, matchesOrderGroup, noteText, ORDER_GROUPS, verdict,
} from '../../../graders/lib/index.ts';
import { FLEISCHNER, NODULE_IN_REPORT, POINT_INTERVAL_SLACK_MONTHS, RADIOLOGY, SCHEDULING_SLACK_DAYS, SMOKER_CODES, SMOKING_STATUS } from './facts.ts';

type NoduleType = 'solid' | 'part-solid' | 'ground-glass';
export interface Nodule { report: DiagnosticReport; date: string; long: number; short: number; mean: number; type: NoduleType }
export type PlanKind = 'none' | 'optional-ct-12' | 'ct-6-12' | 'ct-3-6' | 'pet-ct-or-sampling';
export interface Plan { index: Nodule; priors: Nodule[]; stable: boolean; highRisk: boolean; smoking?: Observation; kind: PlanKind }

const when = (r: DiagnosticReport) => r.effectiveDateTime ?? r.issued ?? '';
const addMonths = (date: string, months: number, days = 0) => {
  const d = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return new Date(d.getTime() + days * 86_400_000).toISOString().slice(0, 10);
};

function noduleOf(r: DiagnosticReport): Nodule | undefined {
  const m = NODULE_IN_REPORT.exec(r.conclusion ?? '');
  if (!m) return undefined;
  const long = Number(m[1]);
  const short = Number(m[2]);
  return { report: r, date: when(r).slice(0, 10), long, short, mean: (long + short) / 2, type: m[3].toLowerCase() as NoduleType };
}

export async function planOf(fhir: FhirClient, patient: string): Promise<Plan | string> {
  const reports = (await fhir.search<DiagnosticReport>('DiagnosticReport', { patient, _count: 1000 }))
    .filter((r) => r.status === 'final' && codingsOf(r.category).some((c) => c.system === RADIOLOGY.system && c.code === RADIOLOGY.code));
  const nodules = reports.map(noduleOf).filter((n): n is Nodule => !!n).sort((a, b) => b.date.localeCompare(a.date));
  if (!nodules.length) return 'no radiology report states a nodule';
  const [index, ...priors] = nodules;
  const stable = index.type === 'solid' && priors.some((p) => p.type === 'solid' && p.date <= addMonths(index.date, -12 * FLEISCHNER.stableYears) && index.mean - p.mean < FLEISCHNER.growthMm);
  const smoking = (await fhir.search<Observation>('Observation', { patient, code: `${SMOKING_STATUS.system}|${SMOKING_STATUS.code}`, _count: 100 }))
    .sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''))[0];
  const highRisk = codingsOf(smoking?.valueCodeableConcept).some((c) => SMOKER_CODES.includes(c.code ?? ''));
  const size = Math.round(index.mean);
  let kind: PlanKind;
  if (index.type === 'solid') {
    kind = stable ? 'none' : size < FLEISCHNER.solid.smallBelowMm ? (highRisk ? 'optional-ct-12' : 'none')
      : size <= FLEISCHNER.solid.largeAboveMm ? 'ct-6-12' : 'pet-ct-or-sampling';
  } else {
    kind = size < FLEISCHNER.subsolidThresholdMm ? 'none' : index.type === 'ground-glass' ? 'ct-6-12' : 'ct-3-6';
  }
  return { index, priors, stable, highRisk, smoking, kind };
}

/** Variants: a pulmonary nodule stated in a radiology report and a recorded smoking status. */
export async function select({ fhir, patient }: SelectContext): Promise<boolean> {
  const plan = await planOf(fhir, patient);
  return typeof plan !== 'string' && plan.smoking !== undefined;
}

const withPlan = (check: (ctx: GraderContext, plan: Plan) => CheckResult | Promise<CheckResult>): Check => async (ctx) => {
  const plan = await planOf(ctx.fhir, ctx.patient);
  return typeof plan === 'string' ? fail(`binding error: ${plan}`) : check(ctx, plan);
};

const describe = (p: Plan) => `${p.index.long} x ${p.index.short} mm ${p.index.type} nodule (mean ${p.index.mean} mm) on ${p.index.date}${p.stable ? ', unchanged for 2+ years' : ''}, ${p.highRisk ? 'high' : 'low'} risk: ${p.kind}`;

/** The window (YYYY-MM-DD) a follow-up chest CT must fall in for the plan, or undefined when none is expected. */
function ctWindow(p: Plan): [string, string] | undefined {
  const { intervalsMonths: i } = FLEISCHNER;
  const span = (months: readonly number[], slackMonths = 0) => [addMonths(p.index.date, months[0] - slackMonths, -SCHEDULING_SLACK_DAYS), addMonths(p.index.date, months[1] + slackMonths, SCHEDULING_SLACK_DAYS)] as [string, string];
  switch (p.kind) {
    case 'ct-6-12': return span(i.ct6to12);
    case 'ct-3-6': return span(i.ct3to6);
    case 'optional-ct-12': return span(i.optional12, POINT_INTERVAL_SLACK_MONTHS);
    case 'pet-ct-or-sampling': return span(i.ct3, POINT_INTERVAL_SLACK_MONTHS);
    default: return undefined;
  }
}

const SAMPLING_REFERRAL = /pulmon|thoracic|chest (surgery|clinic)|lung nodule|interventional radiology|biopsy|bronchoscop/i;
/** A referral that asks for tissue (a nodule-clinic referral for surveillance does not). */
const SAMPLING_INTENT = /biops|sampling|bronchoscop|resect|surg/i;
const occurrence = (s: ServiceRequest) => (s.occurrenceDateTime ?? s.occurrencePeriod?.start)?.slice(0, 10);
const words = (s: ServiceRequest) => [s.code?.text, ...codingsOf(s.code).map((c) => c.display), ...codingsOf(s.performerType).map((c) => c.display), s.performerType?.text,
  ...(s.reasonCode ?? []).map((r) => r.text), ...(s.note ?? []).map((n) => n.text)].filter(Boolean).join(' | ');
const isReferral = (s: ServiceRequest) => codingsOf(s.category).some((c) => ['386053000', '3457005'].includes(c.code ?? '')) || codingsOf(s.code).some((c) => c.code === '3457005') || /referr/i.test(words(s));

/** The follow-up the agent ordered: chest CTs, PET/CTs and referrals for sampling. */
function followUpOrders(ctx: GraderContext) {
  const live = createdResources<ServiceRequest>(ctx.changes, 'ServiceRequest').filter((s) => ['active', 'draft', 'on-hold'].includes(s.status));
  return {
    cts: live.filter((s) => matchesOrderGroup(s, ORDER_GROUPS.chestCt)),
    pets: live.filter((s) => matchesOrderGroup(s, ORDER_GROUPS.petCt)),
    sampling: live.filter((s) => isReferral(s) && SAMPLING_REFERRAL.test(words(s))),
  };
}

function planMatch(ctx: GraderContext, p: Plan) {
  const { cts, pets, sampling } = followUpOrders(ctx);
  const window = ctWindow(p);
  const problems: string[] = [];
  const evidence = [describe(p), `new orders: ${cts.length} chest CT, ${pets.length} PET/CT, ${sampling.length} referral(s) for sampling`];
  if (cts.length > 1) problems.push(`${cts.length} chest CT orders: one follow-up CT at a time`);
  for (const ct of cts) {
    const date = occurrence(ct);
    if (!window) problems.push(`ServiceRequest/${ct.id}: a chest CT although ${p.kind === 'none' ? (p.stable ? 'the solid nodule has been stable for 2+ years' : 'no routine follow-up is recommended') : 'none is due'}`);
    else if (!date) problems.push(`ServiceRequest/${ct.id}: the chest CT has no date (occurrence): the interval is the decision (${window.join(' to ')})`);
    else if (date < window[0] || date > window[1]) problems.push(`ServiceRequest/${ct.id}: chest CT on ${date}, outside ${window.join(' to ')}`);
  }
  if (p.kind !== 'pet-ct-or-sampling') {
    for (const s of [...pets, ...sampling.filter((x) => SAMPLING_INTENT.test(words(x)))]) problems.push(`ServiceRequest/${s.id}: ${pets.includes(s) ? 'PET/CT' : 'referral for tissue sampling'} for a nodule that needs ${p.kind === 'none' ? 'no follow-up' : 'CT surveillance only'} (Fleischner 2017)`);
  }
  const ordered = cts.length + pets.length + sampling.length > 0;
  if ((p.kind === 'ct-6-12' || p.kind === 'ct-3-6') && cts.length === 0) problems.push(`no follow-up chest CT ordered (due ${window!.join(' to ')})`);
  if (p.kind === 'pet-ct-or-sampling' && !ordered) problems.push('a solid nodule > 8 mm needs a PET/CT, a CT at 3 months or tissue sampling; nothing was ordered');
  return matchOf(problems, evidence);
}

/** What a text says the plan is: no routine follow-up, CT surveillance, or PET/sampling. */
function statesPlan(text: string, p: Plan): string[] {
  const none = /no (routine |further |additional )?(follow[- ]?up|imaging|surveillance|ct)|does not (need|require) (follow[- ]?up|further imaging|imaging)|no need for (follow[- ]?up|further imaging)|not (need|require) (routine )?follow[- ]?up/i.test(text);
  const ct = /\bct\b/i.test(text);
  const months = (list: number[]) => list.some((m) => new RegExp(`\\b${m}\\s*(-|to|–)?\\s*(\\d+\\s*)?months?`, 'i').test(text) || new RegExp(`\\d+\\s*(-|to|–)\\s*${m}\\s*months?`, 'i').test(text));
  const window = ctWindow(p);
  const dated = window ? datesIn(text).some((d) => d.value >= window[0] && d.value <= window[1]) : false;
  switch (p.kind) {
    case 'none': return none ? [] : ['does not say that no routine follow-up is needed'];
    case 'optional-ct-12': return none || (ct && (months([12]) || dated)) ? [] : ['states neither "no routine follow-up" nor the optional CT at 12 months'];
    case 'ct-6-12': return ct && (months([6, 12]) || dated) ? [] : ['does not give the follow-up CT at 6-12 months'];
    case 'ct-3-6': return ct && (months([3, 6]) || dated) ? [] : ['does not give the follow-up CT at 3-6 months'];
    default: return /\bpet\b|biops|tissue sampling|bronchoscop|\b3\s*months?/i.test(text) ? [] : ['does not state PET/CT, tissue sampling or a 3-month CT'];
  }
}

const TYPE_WORDS: Record<NoduleType, RegExp> = {
  'part-solid': /part[- ]?solid|semi[- ]?solid|mixed/i,
  'ground-glass': /ground[- ]?glass|non[- ]?solid|\bggn\b|\bggo\b|sub[- ]?solid/i,
  solid: /solid/i,
};
function typeStated(text: string): NoduleType | undefined {
  if (TYPE_WORDS['part-solid'].test(text)) return 'part-solid';
  if (TYPE_WORDS['ground-glass'].test(text)) return 'ground-glass';
  return TYPE_WORDS.solid.test(text) ? 'solid' : undefined;
}

export const checks: Record<string, Check> = {
  reviewed_imaging: withPlan((ctx, p) => verdict(fetchedAll(ctx.log, [p.index, ...p.priors].map((n) => `DiagnosticReport/${n.report.id}`), 'radiology report stating the nodule (index and prior)'))),
  // Fleischner applies to adults >= 35 without known cancer or immunosuppression: age, the problem list and the
  // smoking history are read before a plan is made.
  reviewed_eligibility_and_risk: withPlan(async (ctx, p) => {
    const conditions = (await ctx.fhir.search<Condition>('Condition', { patient: ctx.patient, _count: 1000 }))
      .filter((c) => codingsOf(c.clinicalStatus).some((s) => s.code === 'active') && !ctx.changes.some((x) => x.type === 'Condition' && x.id === c.id && x.action === 'created'));
    return verdict(fetchedAll(ctx.log, [`Patient/${ctx.patient}`, ...conditions.map((c) => `Condition/${c.id}`), `Observation/${p.smoking!.id}`], 'eligibility or risk fact'));
  }),
  nodule_characterised: withPlan((ctx, p) => {
    const size = matchNumber(ctx.answer, { value: p.index.mean, unit: 'mm', tolerance: { absolute: 0.5 }, fields: ['noduleSizeMm', 'sizeMm', 'size'], near: ['mean', 'average', 'size', 'measur'], window: 40 });
    const field = answerField(ctx.answer, 'noduleType', 'type');
    const said = typeStated(typeof field === 'string' ? field : answerText(ctx.answer));
    const type = matchOf(said === p.index.type ? [] : [`the answer calls the nodule ${said ?? '(no type)'}, the report says ${p.index.type}`]);
    return verdict({ ...allOf(size, type), evidence: [...size.evidence, `mean diameter (${p.index.long} + ${p.index.short}) / 2 = ${p.index.mean} mm, ${p.index.type}`] });
  }),
  followup_plan: withPlan((ctx, p) => verdict(planMatch(ctx, p))),
  answer_states_plan: withPlan((ctx, p) => {
    const text = answerText(ctx.answer);
    if (!text.trim()) return fail('no answer');
    return verdict(matchOf(statesPlan(text, p), [describe(p)]));
  }),
  plan_note: withPlan((ctx, p) => {
    const notes = createdResources<DocumentReference>(ctx.changes, 'DocumentReference').filter((d) => d.subject?.reference === `Patient/${ctx.patient}` && d.status === 'current');
    if (!notes.length) return fail('no current DocumentReference for the patient');
    const results = notes.map((d) => {
      const text = noteText(d);
      const size = matchNumber(text, { value: p.index.mean, tolerance: { absolute: 0.5 }, near: ['mean', 'average', 'measur', 'nodule', 'size'], window: 60 });
      const problems = [...(size.ok ? [] : ['does not give the nodule size (mean diameter)']), ...(typeStated(text) === p.index.type ? [] : [`does not call the nodule ${p.index.type}`]), ...statesPlan(text, p)];
      return matchOf(problems, [`DocumentReference/${d.id}`]);
    });
    return verdict(results.find((r) => r.ok) ?? results[0]);
  }),
};
