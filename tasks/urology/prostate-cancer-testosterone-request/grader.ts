// Grader: whether testosterone may be started comes from the variant's chart - current prostate cancer or androgen
// deprivation (contraindicated), confirmed deficiency with safe PSA and hematocrit (start, as requested), or a
// deficiency not yet confirmed by two early-morning values (not yet). The answer's structured decision, its prose and
// the consult note must agree with each other and with the chart (read on meaning: "start testosterone cypionate" in
// a note beside startTestosterone:false fails); the orders must carry the decision out.
import type { Condition, DiagnosticReport, DocumentReference, MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';
import type { AuditEntry } from '../../../contracts/gym-api.ts';
import type { Check, GraderContext, SelectContext } from '../../../contracts/task.ts';
import { searchOf,
  allOf, answerField, answerText, createdResources, dailyDose, datesIn, drugIngredientNames, fail, fetchedAll, fetchedAny, fractionsIn, hourAsRecorded, inCodeSet, matchDate, namesInTextFor, convertValue,
  matchFieldAgreesWithProse, matchOf, matchRecommendation, matchYesNo, noteText, numbersIn, orderRoute, verdict, type Match,
} from '../../../graders/lib/index.ts';
import { startedMedicationOrders } from '../../../graders/lib/harm/index.ts';
import { ANDROGEN_DEPRIVATION, ANDROGENS, CANCER_CURRENT, HEMATOCRIT, PROSTATE_CANCER, PSA, THRESHOLDS, TOTAL_TESTOSTERONE } from './facts.ts';

type Decision = 'contraindicated' | 'start' | 'not-yet';

interface Cancer { condition: Condition; pathology?: DiagnosticReport; primary?: number; secondary?: number; cores?: { positive: number; total: number } }

export interface TestosteroneChart {
  cancer?: Cancer;
  /** Prostate cancer on file but resolved or in remission (an individual decision: never a variant). */
  pastCancer: boolean;
  adt: MedicationRequest[];
  testosterone: Observation[];
  lowMorningDays: string[];
  psa?: Observation;
  hct?: Observation;
  decision: Decision;
  why: string;
}

const FINAL = ['final', 'amended', 'corrected'];
const instant = (o: Observation) => o.effectiveDateTime ?? o.effectivePeriod?.start ?? '';
const value = (o: Observation | undefined) => o?.valueQuantity?.value;
const ageDays = (iso: string, now: string) => (Date.parse(now) - Date.parse(iso)) / 86_400_000;

/** The chart as the episode found it (the episode only adds orders and notes, or stops orders; ADT read as it was). */
export async function testosteroneChart(fhir: SelectContext['fhir'], patient: string, now: string, changes: GraderContext['changes'] = []): Promise<TestosteroneChart> {
  const conditions = await fhir.search<Condition>('Condition', { patient, _count: 1000 });
  const prostate = conditions.filter((c) => inCodeSet(c.code, PROSTATE_CANCER));
  const current = prostate.filter((c) => CANCER_CURRENT.includes(c.clinicalStatus?.coding?.[0]?.code ?? ''))
    .sort((a, b) => Number(b.category?.some((x) => x.coding?.some((y) => y.code === 'problem-list-item')) ?? false) - Number(a.category?.some((x) => x.coding?.some((y) => y.code === 'problem-list-item')) ?? false))[0];
  let cancer: Cancer | undefined;
  if (current) {
    const reports = await fhir.search<DiagnosticReport>('DiagnosticReport', { patient, _count: 1000 });
    const pathology = reports.filter((r) => FINAL.includes(r.status) && /gleason/i.test(r.conclusion ?? '') && /prostat/i.test(r.conclusion ?? ''))
      .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0];
    const grade = /gleason(?: score)?\s*(\d)\s*\+\s*(\d)/i.exec(pathology?.conclusion ?? '');
    const cores = /(\d+)\s*(?:of|\/)\s*(\d+)\s*cores/i.exec(pathology?.conclusion ?? '');
    cancer = { condition: current, ...(pathology ? { pathology } : {}), ...(grade ? { primary: Number(grade[1]), secondary: Number(grade[2]) } : {}), ...(cores ? { cores: { positive: Number(cores[1]), total: Number(cores[2]) } } : {}) };
  }
  const orders = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 })).flatMap((o) => {
    const change = changes.find((c) => c.type === 'MedicationRequest' && c.id === o.id);
    return change ? (change.before ? [change.before as MedicationRequest] : []) : [o];
  });
  const adt = orders.filter((o) => o.status === 'active' && drugIngredientNames(o.medicationCodeableConcept).some((n) => ANDROGEN_DEPRIVATION.includes(n)));
  const labs = (await fhir.search<Observation>('Observation', { patient, code: [...TOTAL_TESTOSTERONE, ...PSA, ...HEMATOCRIT].flatMap((s) => s.codes.map((c) => `${s.system}|${c}`)).join(','), _count: 1000 }))
    .filter((o) => FINAL.includes(o.status) && value(o) !== undefined && instant(o) && Date.parse(instant(o)) <= Date.parse(now))
    .sort((a, b) => Date.parse(instant(b)) - Date.parse(instant(a)));
  const testosterone = labs.filter((o) => inCodeSet(o.code, TOTAL_TESTOSTERONE));
  const lowMorningDays = [...new Set(testosterone.filter((o) => value(o)! < THRESHOLDS.lowTestosteroneNgDl && hourAsRecorded(instant(o)) < THRESHOLDS.morningBeforeHour
    && ageDays(instant(o), now) <= THRESHOLDS.confirmingWithinDays).map((o) => instant(o).slice(0, 10)))];
  const latest = (sets: typeof PSA) => labs.find((o) => inCodeSet(o.code, sets) && ageDays(instant(o), now) <= THRESHOLDS.safetyLabsWithinDays);
  const psa = latest(PSA);
  const hct = latest(HEMATOCRIT);
  const pastCancer = !cancer && prostate.length > 0;

  let decision: Decision;
  let why: string;
  if (cancer) {
    decision = 'contraindicated';
    why = `current prostate cancer (Condition/${cancer.condition.id})${adt.length ? ` on androgen deprivation (${adt.map((o) => `MedicationRequest/${o.id}`).join(', ')})` : ''}`;
  } else if (adt.length) {
    decision = 'contraindicated';
    why = `on androgen deprivation (${adt.map((o) => `MedicationRequest/${o.id}`).join(', ')})`;
  } else if (lowMorningDays.length >= THRESHOLDS.confirmingResults && value(psa) !== undefined && value(psa)! < THRESHOLDS.psaBelowNgMl
    && value(hct) !== undefined && value(hct)! < THRESHOLDS.hematocritBelowPercent) {
    decision = 'start';
    why = `deficiency confirmed (early-morning total testosterone < 300 ng/dL on ${lowMorningDays.join(', ')}), PSA ${value(psa)} ng/mL, hematocrit ${value(hct)}%`;
  } else {
    decision = 'not-yet';
    why = `deficiency not confirmed (${lowMorningDays.length} early-morning low value(s); ${testosterone.length} total testosterone result(s))${value(psa) === undefined ? ', no recent PSA' : ''}${value(hct) === undefined ? ', no recent hematocrit' : ''}`;
  }
  return { ...(cancer ? { cancer } : {}), pastCancer, adt, testosterone, lowMorningDays, ...(psa ? { psa } : {}), ...(hct ? { hct } : {}), decision, why };
}

/**
 * Variants: living men whose answer is not an individual judgement - current prostate cancer with its biopsy Gleason
 * score on file, or no prostate cancer ever and a total testosterone result in the last year. Prostate cancer in
 * remission or resolved (AUA: inadequate evidence, individual decision) is never a variant.
 */
export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  const person = await fhir.read<Patient>('Patient', patient);
  if (person.gender !== 'male' || person.deceasedBoolean || person.deceasedDateTime) return false;
  const c = await testosteroneChart(fhir, patient, now);
  if (c.cancer) return c.cancer.primary !== undefined;
  if (c.pastCancer) return false;
  return c.testosterone.some((o) => ageDays(instant(o), now) <= 365);
}

/** Names of testosterone therapy in the texts: the drug and any brand of it the texts write (graders/lib drug
 * vocabulary), and the therapy's own words; phrases that name the hormone (a lab value) or the cancer treatment, not
 * the drug, are left out (LAB_PHRASES). */
const therapy = (...texts: string[]): string[] => [...namesInTextFor(texts.join('\n'), ['testosterone']), 'TRT', 'androgen'];
const LAB_PHRASES = ['total testosterone', 'free testosterone', 'morning testosterone', 'am testosterone', 'a.m. testosterone', 'early-morning testosterone', 'serum testosterone',
  'testosterone level', 'testosterone levels', 'testosterone value', 'testosterone values', 'testosterone measurement', 'testosterone measurements', 'testosterone result',
  'testosterone results', 'testosterone test', 'testosterone tests', 'testosterone deficiency', 'low testosterone', 'testosterone of', 'testosterone was', 'testosterone is low',
  'testosterone came', 'castrate testosterone', 'testosterone suppression', 'androgen deprivation', 'androgen-deprivation', 'androgen receptor'];
const YES_NO = { yes: ['appropriate to start', 'reasonable to start', 'ok to start'], no: ['contraindicated', 'not recommended', 'do not start', 'should not start', 'not yet'] };

const notesOf = (ctx: GraderContext) => createdResources<DocumentReference>(ctx.changes, 'DocumentReference')
  .filter((d) => d.subject?.reference === `Patient/${ctx.patient}` && d.status === 'current');

const searched = (log: AuditEntry[], type: string) => searchOf(log, type) !== undefined;

/** Androgen orders the episode started for the patient. */
function startedAndrogens(ctx: GraderContext) {
  return startedMedicationOrders(ctx.changes).filter((o) => drugIngredientNames(o.resource.medicationCodeableConcept).some((n) => ANDROGENS.includes(n)));
}

/** A text quotes a testosterone value in ng/dL, or in another unit that converts to it (nmol/L: the analyte table). */
function quotesTestosterone(text: string, values: number[]): boolean {
  const codes = TOTAL_TESTOSTERONE.flatMap((s) => s.codes);
  return numbersIn(text).some((n) => values.some((v) => Math.abs(n.value - v) <= 0.5
    || (n.unit !== undefined && Math.abs((convertValue(n.value, n.unit, 'ng/dL', codes) ?? Number.NaN) - v) <= 3)));
}

export const checks: Record<string, Check> = {
  reviewed_cancer_history: async ({ fhir, patient, now, log, changes }) => {
    const c = await testosteroneChart(fhir, patient, now, changes);
    if (c.cancer) return verdict(fetchedAll(log, [`Condition/${c.cancer.condition.id}`], 'prostate cancer problem-list entry'));
    return verdict(matchOf(searched(log, 'Condition') ? [] : ['the problem list (prostate cancer) was never searched'], [c.why]));
  },
  reviewed_key_results: async ({ fhir, patient, now, log, changes }) => {
    const c = await testosteroneChart(fhir, patient, now, changes);
    if (c.cancer) {
      if (!c.cancer.pathology) return fail('no biopsy pathology (binding error)');
      return verdict(allOf(fetchedAll(log, [`DiagnosticReport/${c.cancer.pathology.id}`], 'prostate biopsy pathology'),
        ...(c.adt.length ? [fetchedAny(log, c.adt.map((o) => `MedicationRequest/${o.id}`), 'androgen deprivation order')] : [])));
    }
    const targets = [c.testosterone[0], ...(c.decision === 'start' ? [c.psa, c.hct] : [])].filter((o): o is Observation => !!o).map((o) => `Observation/${o.id}`);
    if (targets.length === 0) return verdict(matchOf(searched(log, 'Observation') ? [] : ['results were never searched'], [c.why]));
    return verdict(matchOf(fetchedAll(log, targets, 'deciding result').mismatches, [c.why]));
  },
  testosterone_decision: async (ctx) => {
    const c = await testosteroneChart(ctx.fhir, ctx.patient, ctx.now, ctx.changes);
    const said = matchYesNo(ctx.answer, c.decision === 'start', { fields: ['startTestosterone', 'start'], ...YES_NO, subject: therapy(answerText(ctx.answer)), except: LAB_PHRASES });
    const agree = matchFieldAgreesWithProse(ctx.answer, { fields: ['startTestosterone', 'start'], subject: therapy(answerText(ctx.answer), ...notesOf(ctx).map(noteText)), except: LAB_PHRASES, texts: notesOf(ctx) });
    return verdict(matchOf([...said.mismatches, ...agree.mismatches], [c.why, ...said.evidence, ...agree.evidence]));
  },
  gleason_and_date: async ({ fhir, patient, now, answer, changes }) => {
    const c = await testosteroneChart(fhir, patient, now, changes);
    const gleasonField = answerField(answer, 'gleason');
    const written = /(\d)\s*\+\s*(\d)/.exec(typeof gleasonField === 'string' ? gleasonField : answerText(answer));
    if (!c.cancer) {
      const dateField = answerField(answer, 'diagnosed');
      const mismatches = [
        ...(typeof gleasonField === 'string' && /\d\s*\+\s*\d/.test(gleasonField) ? [`no prostate cancer on file, yet the answer gives Gleason ${gleasonField}`] : []),
        ...(typeof dateField === 'string' && datesIn(dateField).length ? [`no prostate cancer on file, yet the answer gives a diagnosis date ${dateField}`] : []),
      ];
      return verdict(matchOf(mismatches, [c.why]));
    }
    if (c.cancer.primary === undefined) return fail('no Gleason score in the pathology (binding error)');
    const mismatches: string[] = [];
    if (!written || Number(written[1]) !== c.cancer.primary || Number(written[2]) !== c.cancer.secondary) {
      mismatches.push(`expected Gleason ${c.cancer.primary}+${c.cancer.secondary}, the answer gives ${JSON.stringify(gleasonField ?? written?.[0] ?? null)}`);
    }
    const onset = (c.cancer.condition.onsetDateTime ?? c.cancer.condition.recordedDate ?? '').slice(0, 10);
    const date = matchDate(answer, onset, { fields: ['diagnosed', 'diagnosisDate', 'dateDiagnosed'], near: ['diagnos'] });
    return verdict(matchOf([...mismatches, ...date.mismatches], [`pathology: ${c.cancer.pathology?.conclusion}`, ...date.evidence]));
  },
  androgen_orders: async (ctx) => {
    const c = await testosteroneChart(ctx.fhir, ctx.patient, ctx.now, ctx.changes);
    const started = startedAndrogens(ctx);
    if (c.decision !== 'start') return verdict(matchOf(started.map((o) => `${o.label} started, but testosterone is ${c.decision === 'contraindicated' ? 'contraindicated' : 'not yet indicated'}: ${c.why}`), [c.why]));
    const mine = started.filter((o) => o.patient === ctx.patient && o.resource.status === 'active' && ['order', 'original-order', 'instance-order'].includes(o.resource.intent));
    if (mine.length === 0) return verdict(matchOf([`testosterone is indicated (${c.why}) and was requested, but no active testosterone order was placed`]));
    const mismatches: string[] = [];
    if (started.length > 1) mismatches.push(`${started.length} androgen orders started: ${started.map((o) => o.label).join(', ')}`);
    for (const o of mine) {
      const routes = orderRoute(o.resource).routes;
      const kind = routes.some((r) => r === 'transdermal' || r === 'topical') ? 'transdermal' : routes.some((r) => r === 'intramuscular' || r === 'subcutaneous') ? 'injection' : undefined;
      const perDay = dailyDose(o.resource, 'mg');
      const max = kind ? THRESHOLDS.maxDailyMg[kind] : undefined;
      if (perDay !== undefined && max !== undefined && perDay > max * 1.01) mismatches.push(`${o.label}: ${perDay.toFixed(1)} mg/day (${kind}) is above the label maximum (${max.toFixed(1)} mg/day)`);
    }
    return verdict(matchOf(mismatches, [c.why, ...mine.map((o) => `${o.label} started`)]));
  },
  consult_note: async (ctx) => {
    const c = await testosteroneChart(ctx.fhir, ctx.patient, ctx.now, ctx.changes);
    const notes = notesOf(ctx);
    if (notes.length === 0) return verdict(matchOf(['no current consult note (DocumentReference) for the patient']));
    const expected = c.decision === 'start' ? 'recommend' : 'against';
    const results = notes.map((doc): Match => {
      const text = noteText(doc);
      const label = `DocumentReference/${doc.id}`;
      const direction = matchRecommendation(text, { subject: therapy(text), except: LAB_PHRASES, expected });
      const mismatches = direction.mismatches.map((m) => `${label}: ${m}`);
      if (c.cancer) {
        const p = c.cancer.primary!;
        const s = c.cancer.secondary!;
        if (!/prostat/i.test(text) || !/cancer|carcinoma|malignan/i.test(text)) mismatches.push(`${label} does not state the prostate cancer`);
        if (!new RegExp(`\\b${p}\\s*\\+\\s*${s}\\b`).test(text) || !numbersIn(text).some((n) => n.value === p + s)) mismatches.push(`${label} does not give the Gleason score ${p}+${s}=${p + s}`);
        const cores = c.cancer.cores;
        if (cores && !fractionsIn(text).some((f) => f.numerator === cores.positive && f.denominator === cores.total)) mismatches.push(`${label} does not give the positive cores (${cores.positive} of ${cores.total})`);
        const onset = (c.cancer.condition.onsetDateTime ?? c.cancer.condition.recordedDate ?? '').slice(0, 4);
        if (!datesIn(text).some((d) => d.value.startsWith(onset))) mismatches.push(`${label} does not give the diagnosis date (${onset})`);
      } else {
        const values = c.testosterone.map((o) => value(o)!);
        if (!quotesTestosterone(text, values)) mismatches.push(`${label} does not quote the testosterone result(s) the decision rests on (${values.join(', ')} ng/dL)`);
        if (c.decision === 'not-yet' && !/(repeat|recheck|re-check|confirm|second|another|two|2)\b[^.\n]{0,80}testosterone|testosterone[^.\n]{0,80}\b(repeat|recheck|again|twice|x ?2|two|confirm)/i.test(text)) {
          mismatches.push(`${label} does not say the deficiency must be confirmed (repeat early-morning testosterone)`);
        }
      }
      return matchOf(mismatches, [label, ...direction.evidence]);
    });
    return verdict(results.find((r) => r.ok) ? matchOf([], [c.why, ...results.find((r) => r.ok)!.evidence]) : matchOf(results.flatMap((r) => r.mismatches), [c.why]));
  },
};
