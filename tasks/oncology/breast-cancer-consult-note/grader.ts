// Grader: the oncologic facts (breast cancer Condition onset, biopsy pathology conclusion), the latest hemoglobin and
// creatinine and the active medications come from the variant's chart; the note must state them (covers) and
// contradict nothing (grounded); no routine tumor markers or staging scans (ASCO 2013 follow-up guideline), and the
// note is read for its direction: against routine markers/scans, for annual mammography unless both breasts are gone.
import type { Condition, DiagnosticReport, DocumentReference, MedicationRequest, Observation, Procedure, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../contracts/task.ts';
import type { FhirClient } from '../../../contracts/fhir-client.ts';
import {
  allOf, answerField, codingsOf, createdResources, dateMatches, datesIn, describeConcept, fail, fetchedAll, inCodeSet, latestObservation, matchDate, matchOf,
  matchYesNo, mentionsIn, noteText, readDirection, verdict, writtenResources, type Match,
} from '../../../graders/lib/index.ts';
import { chartFromFhir, covers, grounded, keyFactOf } from '../../../graders/documentation/index.ts';
import { BILATERAL_MASTECTOMY_WORDS, BREAST_CANCER, CREATININE, HEMOGLOBIN, MAMMOGRAPHY, MARKER_OR_SCAN, MARKER_OR_SCAN_WORDS, MARKERS_AND_SCANS } from './facts.ts';

export interface Facts {
  condition: Condition;
  pathology: DiagnosticReport;
  histology: string;
  grade?: string;
  er: 'positive' | 'negative';
  pr: 'positive' | 'negative';
  her2: 'positive' | 'negative';
  hemoglobin: Observation;
  creatinine: Observation;
  meds: MedicationRequest[];
  /** Both breasts removed: no mammography. */
  bilateralMastectomy?: Procedure;
}

const receptor = (text: string, name: string): 'positive' | 'negative' | undefined => {
  const m = new RegExp(`\\b${name}[\\s-]*(positive|negative|\\+|-)`, 'i').exec(text);
  return m ? (/^(positive|\+)$/i.test(m[1]) ? 'positive' : 'negative') : undefined;
};

export async function facts(fhir: FhirClient, patient: string): Promise<Facts | undefined> {
  const conditions = await fhir.search<Condition>('Condition', { patient, code: 'http://snomed.info/sct|254837009', category: 'problem-list-item' });
  const condition = conditions.find((c) => inCodeSet(c.code, BREAST_CANCER) && c.clinicalStatus?.coding?.some((x) => x.code === 'active'));
  const reports = await fhir.search<DiagnosticReport>('DiagnosticReport', { patient, category: 'SP' });
  const pathology = reports.filter((r) => /carcinoma/i.test(r.conclusion ?? '') && /\bER\b/.test(r.conclusion ?? '') && /breast/i.test([r.code?.text, ...codingsOf(r.code).map((c) => c.display)].join(' ')))
    .sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''))[0];
  if (!condition || !pathology) return undefined;
  const text = pathology.conclusion ?? '';
  const er = receptor(text, 'ER');
  const pr = receptor(text, 'PR');
  const her2 = receptor(text, 'HER2');
  const histology = /^([^,;.]*carcinoma)/i.exec(text)?.[1]?.trim();
  const grade = /grade\s*(\d)/i.exec(text)?.[1];
  const hemoglobin = await latestObservation(fhir, patient, HEMOGLOBIN);
  const creatinine = await latestObservation(fhir, patient, CREATININE);
  if (!er || !pr || !her2 || !histology || !hemoglobin?.valueQuantity || !creatinine?.valueQuantity) return undefined;
  const meds = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active', _count: 1000 }))
    .filter((o) => o.status === 'active' && o.intent !== 'plan');
  const bilateralMastectomy = (await fhir.search<Procedure>('Procedure', { patient, _count: 1000 })).find((p) => p.status === 'completed'
    && BILATERAL_MASTECTOMY_WORDS.some((w) => [p.code?.text, ...codingsOf(p.code).map((c) => c.display)].join(' ').toLowerCase().includes(w)));
  return { condition, pathology, histology, ...(grade ? { grade } : {}), er, pr, her2, hemoglobin, creatinine, meds, ...(bilateralMastectomy ? { bilateralMastectomy } : {}) };
}

export async function select({ fhir, patient }: SelectContext): Promise<boolean> {
  return (await facts(fhir, patient)) !== undefined;
}

export const onsetDate = (c: Condition) => (c.onsetDateTime ?? c.recordedDate ?? '').slice(0, 10);

/** Agent-written notes: current DocumentReferences created for the patient, latest last. */
const notes = (ctx: GraderContext) => createdResources<DocumentReference>(ctx.changes, 'DocumentReference')
  .filter((d) => d.subject?.reference === `Patient/${ctx.patient}` && d.status === 'current');

/** The part of a note under its first Plan/Recommendations heading, or '' without one. */
function recommendationPart(text: string): string {
  const heading = /^\s*[-*]?\s*(?:plan|recommendations?|advice)\b[^\n]*$/im.exec(text);
  return heading ? text.slice(heading.index) : '';
}

/**
 * The note's direction about a subject: 'for' needs a recommendation and no outright advice against; 'against' needs
 * advice against and no outright recommendation; 'not-for' only forbids an outright recommendation.
 */
function advises(text: string, subject: string[], expected: 'for' | 'against' | 'not-for', what: string): Match {
  const reading = readDirection(text, subject);
  // A verbless item under a Plan/Recommendations heading ("- Annual mammography.") is a recommendation of it.
  const listed = expected === 'for' && reading.statements.every((s) => s.direction !== 'against') && mentionsIn(recommendationPart(text), subject).length > 0;
  const shown = reading.statements.map((s) => `${s.direction}${s.strong ? '' : ' (weak)'}: "${s.text.slice(0, 100)}" (${s.why})`);
  const strongFor = reading.statements.filter((s) => s.strong && s.direction === 'recommend');
  const strongAgainst = reading.statements.filter((s) => s.strong && s.direction === 'against');
  const has = (d: 'recommend' | 'against') => reading.statements.some((s) => s.direction === d);
  const bad = expected === 'for' ? (!has('recommend') && !listed) || (strongAgainst.length > 0 && strongFor.length === 0)
    : expected === 'against' ? !has('against') || strongFor.length > 0
      : strongFor.length > 0;
  const want = expected === 'for' ? `recommend ${what}` : expected === 'against' ? `advise against ${what}` : `not recommend ${what}`;
  return matchOf(bad ? [`the note should ${want}; it reads ${reading.direction}`, ...shown] : [], [`the note ${expected === 'for' ? 'recommends' : 'does not recommend'} ${what}`, ...shown]);
}

const bindingError = () => fail('the chart lacks the breast cancer, pathology or labs (binding error)');

export const checks: Record<string, Check> = {
  reviewed_pathology: async ({ fhir, patient, log }) => {
    const f = await facts(fhir, patient);
    if (!f) return bindingError();
    return verdict(fetchedAll(log, [`Condition/${f.condition.id}`, `DiagnosticReport/${f.pathology.id}`], 'breast cancer problem and pathology report'));
  },
  reviewed_recent_labs: async ({ fhir, patient, log }) => {
    const f = await facts(fhir, patient);
    if (!f) return bindingError();
    return verdict(fetchedAll(log, [`Observation/${f.hemoglobin.id}`, `Observation/${f.creatinine.id}`], 'latest hemoglobin and creatinine'));
  },
  answer_pathology_and_plan: async ({ fhir, patient, answer }) => {
    const f = await facts(fhir, patient);
    if (!f) return bindingError();
    const mismatches: string[] = [];
    const said = (name: string) => String(answerField(answer, name) ?? '').trim().toLowerCase();
    for (const [name, expected] of [['er', f.er], ['pr', f.pr], ['her2', f.her2]] as const) {
      const value = said(name);
      const got = /^(positive|pos|\+|true|yes)$/.test(value) ? 'positive' : /^(negative|neg|-|false|no)$/.test(value) ? 'negative' : value;
      if (got !== expected) mismatches.push(`expected ${name.toUpperCase()} ${expected}, the answer gives ${JSON.stringify(value)}`);
    }
    // A JSON "false" next to prose that recommends the test fails (the field must agree with the answer's text).
    return verdict(allOf(
      matchDate(answer, onsetDate(f.condition), { fields: ['diagnosed'] }),
      matchOf(mismatches, [`pathology: ${f.pathology.conclusion}`]),
      matchYesNo(answer, false, { fields: ['tumorMarkers'], yes: ['order tumor markers'], no: ['not recommended', 'not indicated'], subject: ['tumor markers', 'tumor marker', 'CA 27.29', 'CEA'] }),
      matchYesNo(answer, false, { fields: ['petCt', 'petCT', 'pet'], yes: ['order pet'], no: ['not recommended', 'not indicated'], subject: ['PET/CT', 'PET-CT', 'PET', 'PET scan'] }),
    ));
  },
  no_routine_markers_or_scans: ({ changes }) => {
    const bad = writtenResources<ServiceRequest>(changes, 'ServiceRequest')
      .filter((o) => ['active', 'draft', 'on-hold'].includes(o.status))
      .filter((o) => inCodeSet(o.code, MARKER_OR_SCAN) || MARKER_OR_SCAN_WORDS.test([o.code?.text, ...codingsOf(o.code).map((c) => c.display)].join(' ')));
    return verdict(matchOf(bad.map((o) => `ServiceRequest/${o.id} orders ${describeConcept(o.code)} (routine surveillance marker/scan)`), ['no tumor marker or staging scan ordered']));
  },
  note_pathology: async (ctx) => {
    const f = await facts(ctx.fhir, ctx.patient);
    if (!f) return bindingError();
    const note = notes(ctx).at(-1);
    if (!note) return fail('no current DocumentReference was written for the patient');
    const text = noteText(note);
    const missing: string[] = [];
    const abbreviation = /ductal/i.test(f.histology) ? 'idc' : /lobular/i.test(f.histology) ? 'ilc' : undefined;
    if (!text.toLowerCase().includes(f.histology.toLowerCase()) && !(abbreviation && new RegExp(`\\b${abbreviation}\\b`, 'i').test(text))) missing.push(`histology (${f.histology})`);
    for (const [name, long, value] of [['ER', 'estrogen receptor', f.er], ['PR', 'progesterone receptor', f.pr], ['HER2', 'HER2/neu', f.her2]] as const) {
      const sign = value === 'positive' ? '(?:positive|pos\\b|\\+)' : '(?:negative|neg\\b|-(?![a-z]))';
      if (!new RegExp(`(?:\\b${name}|${long.replace('/', '\\/')})[\\s:-]*${sign}`, 'i').test(text)) missing.push(`${name} ${value}`);
    }
    if (f.grade && !new RegExp(`grade[\\s:]*(?:${f.grade}|${['', 'I', 'II', 'III'][Number(f.grade)]})\\b`, 'i').test(text)) missing.push(`grade ${f.grade}`);
    if (!datesIn(text).some((d) => dateMatches(d, onsetDate(f.condition), 'month'))) missing.push(`diagnosis date ${onsetDate(f.condition)}`);
    return verdict(matchOf(missing.map((m) => `the note does not state the ${m}`), [`pathology: ${f.pathology.conclusion}; diagnosed ${onsetDate(f.condition)}`]));
  },
  surveillance_direction: async (ctx) => {
    const f = await facts(ctx.fhir, ctx.patient);
    if (!f) return bindingError();
    const note = notes(ctx).at(-1);
    if (!note) return fail('no current DocumentReference was written for the patient');
    const text = noteText(note);
    return verdict(allOf(advises(text, MARKERS_AND_SCANS, 'against', 'routine tumor markers and PET/CT or other scans'),
      f.bilateralMastectomy ? advises(text, MAMMOGRAPHY, 'not-for', `mammography (after ${describeConcept(f.bilateralMastectomy.code)}, Procedure/${f.bilateralMastectomy.id})`)
        : advises(text, MAMMOGRAPHY, 'for', 'annual mammography')));
  },
  note_covers_key_facts: async (ctx): Promise<CheckResult> => {
    const note = notes(ctx).at(-1);
    if (!note) return fail('no current DocumentReference was written for the patient');
    const f = await facts(ctx.fhir, ctx.patient);
    if (!f) return bindingError();
    return covers(note, [
      keyFactOf(f.condition, { id: 'breast-cancer' }),
      keyFactOf(f.hemoglobin, { id: 'latest-hemoglobin' }),
      keyFactOf(f.creatinine, { id: 'latest-creatinine' }),
      ...f.meds.map((m) => keyFactOf(m, { id: `medication-${m.id}` })),
    ], await chartFromFhir(ctx.fhir, ctx.patient), { asOf: ctx.now });
  },
  note_grounded: async (ctx): Promise<CheckResult> => {
    const note = notes(ctx).at(-1);
    if (!note) return fail('no current DocumentReference was written for the patient');
    return grounded(note, await chartFromFhir(ctx.fhir, ctx.patient), { asOf: ctx.now, maxUnsupported: 0 });
  },
};
