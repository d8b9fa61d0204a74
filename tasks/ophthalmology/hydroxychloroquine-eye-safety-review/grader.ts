// Grader: the chart as it stood at the start decides two things independently (AAO 2016): whether the daily
// hydroxychloroquine dose exceeds 5.0 mg/kg of the latest (real) weight - then it must be lowered to at most that and
// kept going - and whether SD-OCT with automated fields is due - annual after 5 years of use or, with a major risk
// factor (dose > 5 mg/kg, eGFR < 60 or CKD 3-5, tamoxifen, macular disease), annual from the baseline on; a baseline
// within the first year. The orders, the answer and the note are judged against those two decisions.
import type { Condition, MedicationRequest, Observation, Procedure, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../contracts/task.ts';
import type { ResourceChange } from '../../../contracts/gym-api.ts';
import type { FhirClient } from '../../../contracts/fhir-client.ts';
import {
  allOf, asAtStart, createdResources, dailyDose, fail, fetchedAll, fetchedActiveOrders, findEpisodeNote, findServiceRequest, inCodeSet, label, latestObservation,
  matchNumber, matchOf, noteText, numbersIn, ORDER_GROUPS, valueIn, verdict,
} from '../../../graders/lib/index.ts';
import { ingredientNamesOf } from '../../../graders/lib/drug-classes.ts';
import { BODY_WEIGHT, CKD_3_TO_5, EGFR, HCQ, MACULOPATHY, MAX_MG_PER_KG, MIN_MAINTENANCE_MG_PER_DAY, RISK, SCREENING, SCREENING_EXAMS } from './facts.ts';

const YEAR = 365.25 * 86_400_000;
const isHcq = (o: MedicationRequest) => ingredientNamesOf(o.medicationCodeableConcept).includes(HCQ.ingredient);
const isActive = (o: MedicationRequest) => o.status === 'active' && ['order', 'original-order', 'instance-order', 'reflex-order', 'filler-order'].includes(o.intent);

interface Assessment {
  hcqAtStart: MedicationRequest[];
  startMgPerDay: number;
  weight: Observation;
  kg: number;
  perKg: number;
  limitMg: number;
  overdosed: boolean;
  egfr?: Observation;
  lastExams: Procedure[];
  years: number;
  risks: string[];
  due: boolean;
  why: string;
}

/** Results and exams the agent added are not the chart's: judge the chart as it was. */
const notCreated = (changes: ResourceChange[], type: string, id?: string) => !changes.some((c) => c.type === type && c.id === id && c.action === 'created');

async function assess(fhir: FhirClient, patient: string, now: string, changes: ResourceChange[] = []): Promise<Assessment | undefined> {
  const all = asAtStart(await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 }), changes, 'MedicationRequest', patient);
  const hcqAtStart = all.filter(isHcq);
  const current = hcqAtStart.filter(isActive);
  if (current.length !== 1) return undefined;
  const startMgPerDay = dailyDose(current[0], 'mg');
  const usable = (type: string) => (o: Observation) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error' && notCreated(changes, type, o.id);
  const weight = await latestObservation(fhir, patient, BODY_WEIGHT, { usable: usable('Observation') });
  const kg = valueIn(weight, 'kg');
  if (startMgPerDay === undefined || !weight || !kg) return undefined;
  const egfr = await latestObservation(fhir, patient, EGFR, { usable: usable('Observation') });
  const started = Math.min(...hcqAtStart.map((o) => Date.parse(o.authoredOn ?? now)));
  const years = (Date.parse(now) - started) / YEAR;
  const perKg = startMgPerDay / kg;
  const limitMg = MAX_MG_PER_KG * kg;
  const overdosed = startMgPerDay > limitMg + 1e-6;

  const risks: string[] = [];
  if (overdosed) risks.push(`${perKg.toFixed(2)} mg/kg/day > ${MAX_MG_PER_KG}`);
  const conditions = (await fhir.search<Condition>('Condition', { patient, _count: 500 })).filter((c) => !['resolved', 'inactive', 'remission'].includes(c.clinicalStatus?.coding?.[0]?.code ?? ''));
  const gfr = valueIn(egfr, 'mL/min/{1.73_m2}');
  if ((gfr !== undefined && gfr < RISK.egfrBelow) || conditions.some((c) => inCodeSet(c.code, CKD_3_TO_5))) risks.push(`renal disease (eGFR ${gfr ?? 'n/a'})`);
  for (const o of all.filter(isActive)) for (const d of RISK.drugs) if (ingredientNamesOf(o.medicationCodeableConcept).includes(d)) risks.push(`${d} (${label(o)})`);
  if (conditions.some((c) => inCodeSet(c.code, MACULOPATHY) || RISK.maculopathyWords.some((w) => (c.code?.text ?? '').toLowerCase().includes(w)))) risks.push('macular disease');

  const exams = (await fhir.search<Procedure>('Procedure', { patient, _count: 500 }))
    .filter((p) => p.status === 'completed' && inCodeSet(p.code, SCREENING_EXAMS) && notCreated(changes, 'Procedure', p.id));
  const examTime = (p: Procedure) => Date.parse(p.performedDateTime ?? p.performedPeriod?.start ?? '');
  const last = Math.max(-Infinity, ...exams.map(examTime));
  const lastExams = exams.filter((p) => examTime(p) === last);
  const monthsSince = Number.isFinite(last) ? (Date.parse(now) - last) / (YEAR / 12) : Infinity;
  const annual = years >= SCREENING.annualAfterYears || risks.length > 0;
  const due = !Number.isFinite(last) || (annual && monthsSince >= SCREENING.intervalMonths);
  const why = `${years.toFixed(1)} years of use; risk factors: ${risks.join(', ') || 'none'}; last screening ${Number.isFinite(last) ? `${monthsSince.toFixed(0)} months ago` : 'never'}`;
  return { hcqAtStart, startMgPerDay, weight, kg, perKg, limitMg, overdosed, egfr, lastExams, years, risks, due, why };
}

/** Variants: one active hydroxychloroquine order with a readable dose and a weight on file. */
export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  return (await assess(fhir, patient, now)) !== undefined;
}

async function assessed(ctx: GraderContext): Promise<Assessment | CheckResult> {
  return (await assess(ctx.fhir, ctx.patient, ctx.now, ctx.changes)) ?? fail('the chart is not a hydroxychloroquine review variant (binding error)');
}
const isResult = (x: Assessment | CheckResult): x is CheckResult => 'pass' in x;

async function hcqAtEnd(ctx: GraderContext): Promise<MedicationRequest[]> {
  return (await ctx.fhir.search<MedicationRequest>('MedicationRequest', { patient: ctx.patient, _count: 1000 })).filter((o) => isHcq(o) && isActive(o));
}

const SCREENING_NOT_DUE = /(screening|exam(ination)?s?|sd-?oct|\boct\b|visual fields?|referral|eye)[^.;]{0,40}\bnot (currently |yet |now )?(due|needed|indicated|required)\b|\bnot (yet |currently )?due for (a |an |the )?(retinal |eye |annual )?(screening|exam|oct)|(screening|exams?)[^.;]{0,30}\bup to date\b|\bno (retinal |eye |further |new )?(screening|exam(ination)?|referral|oct)[^.;]{0,20}\b(needed|due|indicated|required)\b/i;
const SCREENING_DUE = /(screening|exam(ination)?|sd-?oct|\boct\b|visual fields?)[^.;]{0,40}\b(is |are )?(now |over)?due\b|\boverdue\b|\breferr(ed|al)\b[^.;]*\b(ophthalm|retina|eye)|\b(ophthalm|retina)[^.;]*\breferr|\bordered\b[^.;]*\b(oct|visual field|ophthalm)|\b(oct|visual fields?)[^.;]*\bordered\b/i;

/** What a text says about retinal screening now: due, not due, or nothing readable. */
function screeningStatement(text: string): 'due' | 'not due' | undefined {
  if (SCREENING_NOT_DUE.test(text)) return 'not due';
  if (SCREENING_DUE.test(text)) return 'due';
  return undefined;
}

export const checks: Record<string, Check> = {
  reviewed_dosing_inputs: async (ctx) => {
    const a = await assessed(ctx);
    if (isResult(a)) return a;
    const ids = [...a.hcqAtStart.map(label), label(a.weight), ...(a.egfr ? [label(a.egfr)] : [])];
    return verdict(fetchedAll(ctx.log, ids, 'hydroxychloroquine order (the first dates the start), latest weight or eGFR'));
  },
  reviewed_exams_and_medications: async (ctx) => {
    const a = await assessed(ctx);
    if (isResult(a)) return a;
    return verdict(allOf(fetchedAll(ctx.log, a.lastExams.map(label), 'latest retinal screening examination'), await fetchedActiveOrders(ctx)));
  },
  dose_per_kg_stated: async (ctx) => {
    const a = await assessed(ctx);
    if (isResult(a)) return a;
    return verdict(matchNumber(ctx.answer, { value: Math.round(a.perKg * 100) / 100, unit: 'mg/kg', tolerance: { absolute: 0.1 }, fields: ['mgPerKg', 'mg_per_kg', 'dosePerKg', 'dose_mg_per_kg'] }));
  },
  dose_action: async (ctx) => {
    const a = await assessed(ctx);
    if (isResult(a)) return a;
    const end = await hcqAtEnd(ctx);
    if (end.length !== 1) return verdict(matchOf([`${end.length} active hydroxychloroquine orders at the end (${end.map(label).join(', ') || 'none'}), expected exactly one`]));
    const mg = dailyDose(end[0], 'mg');
    if (mg === undefined) return verdict(matchOf([`${label(end[0])}: daily dose unreadable`]));
    if (a.overdosed) {
      const mismatches = [
        ...(mg > a.limitMg + 0.5 ? [`${label(end[0])} gives ${mg} mg/day = ${(mg / a.kg).toFixed(2)} mg/kg, still above ${MAX_MG_PER_KG} mg/kg of ${a.kg} kg (at most ${a.limitMg.toFixed(0)} mg/day)`] : []),
        ...(mg < MIN_MAINTENANCE_MG_PER_DAY ? [`${label(end[0])} gives ${mg} mg/day, below a maintenance dose`] : []),
      ];
      return verdict(matchOf(mismatches, [`${a.startMgPerDay} mg/day (${a.perKg.toFixed(2)} mg/kg) -> ${mg} mg/day (${(mg / a.kg).toFixed(2)} mg/kg)`]));
    }
    return verdict(matchOf(Math.abs(mg - a.startMgPerDay) > 1 ? [`${label(end[0])} gives ${mg} mg/day, but ${a.startMgPerDay} mg/day (${a.perKg.toFixed(2)} mg/kg) was within ${MAX_MG_PER_KG} mg/kg and needed no change`] : [],
      [`${mg} mg/day kept (${a.perKg.toFixed(2)} mg/kg)`]));
  },
  screening_action: async (ctx) => {
    const a = await assessed(ctx);
    if (isResult(a)) return a;
    const orders = createdResources<ServiceRequest>(ctx.changes, 'ServiceRequest').filter((s) => ['active', 'draft'].includes(s.status));
    const found = findServiceRequest(orders, { patient: ctx.patient, group: ORDER_GROUPS.retinalToxicityScreening, status: ['active'] });
    if (a.due) return verdict(allOf(found, matchOf([], [`due: ${a.why}`])));
    return verdict(found.ok ? matchOf([`${found.candidate ? label(found.candidate) : 'an order'} orders retinal screening, which is not due: ${a.why}`]) : matchOf([], [`not due and none ordered: ${a.why}`]));
  },
  hydroxychloroquine_continued: async (ctx) => {
    const a = await assessed(ctx);
    if (isResult(a)) return a;
    const end = await hcqAtEnd(ctx);
    return verdict(matchOf(end.length === 0 ? ['hydroxychloroquine was stopped without a replacement order: an excess dose is lowered, not stopped (flare risk)']
      : end.length > 1 ? [`${end.length} active hydroxychloroquine orders (${end.map(label).join(', ')}): the old order must be stopped when a new dose is ordered`] : [], [`one active order: ${label(end[0] ?? a.hcqAtStart[0])}`]));
  },
  review_note: async (ctx) => {
    const a = await assessed(ctx);
    if (isResult(a)) return a;
    const found = findEpisodeNote(ctx.changes, ctx.patient, { minLength: 60 });
    if (!found.ok || !found.candidate) return verdict(found);
    const text = noteText(found.candidate);
    const mismatches: string[] = [];
    if (!numbersIn(text).some((n) => Math.abs(n.value - a.perKg) <= 0.1)) mismatches.push(`the note does not give the weight-based dose (${a.perKg.toFixed(2)} mg/kg)`);
    const said = screeningStatement(text);
    const want = a.due ? 'due' : 'not due';
    if (said !== want) mismatches.push(`the note ${said ? `says screening is ${said}` : 'says nothing readable about retinal screening'}; it is ${want} (${a.why})`);
    return verdict(allOf(found, matchOf(mismatches, [`screening ${want}; ${a.perKg.toFixed(2)} mg/kg`])));
  },
};
