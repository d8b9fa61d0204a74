// Grader: the oncologic facts (breast cancer Condition onset, biopsy pathology conclusion), the latest hemoglobin and
// creatinine and the active medications come from the variant's chart; the note must state them (covers, findNote)
// and contradict nothing (grounded); no routine tumor markers or staging scans (ASCO 2013 follow-up guideline).
import type { Condition, DiagnosticReport, DocumentReference, MedicationRequest, Observation, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../harness/types.ts';
import type { FhirClient } from '../../../harness/fhir-client.ts';
import {
  allOf, answerField, codingsOf, createdResources, describeConcept, fail, fetchedAll, findNote, inCodeSet, latestObservation, LOINC, matchOf, matchYesNo,
  SNOMED, verdict, writesOnlyFor, writtenResources,
} from '../../../graders/lib/index.ts';
import { chartFromFhir, covers, grounded, keyFactOf } from '../../../graders/documentation/index.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
export const BREAST_CANCER = [{ system: SNOMED, codes: ['254837009'] }];
export const HEMOGLOBIN = [{ system: LOINC, codes: ['718-7'] }, { system: FLOWSHEET, codes: ['HGB'] }];
export const CREATININE = [{ system: LOINC, codes: ['2160-0', '38483-4'] }, { system: FLOWSHEET, codes: ['CREAT'] }];
/** Tumor markers (LOINC: CA 15-3, CA 27.29, CEA) and staging scans (SNOMED: PET, CT, PET/CT, bone scan). */
const MARKER_OR_SCAN = [
  { system: LOINC, codes: ['6875-9', '17842-6', '2039-6', '83098-4'] },
  { system: SNOMED, codes: ['82918005', '77477000', '450436003', '41747008', '418272005', '169069000'] },
];
const MARKER_OR_SCAN_WORDS = /\b(ca ?15-3|ca ?27[.-]29|cea|carcinoembryonic|tumou?r marker|pet|positron|ct|computed tomography|cat scan|bone scan|scintigraph)\b/i;

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
  return { condition, pathology, histology, ...(grade ? { grade } : {}), er, pr, her2, hemoglobin, creatinine, meds };
}

export async function select({ fhir, patient }: SelectContext): Promise<boolean> {
  return (await facts(fhir, patient)) !== undefined;
}

export const onsetDate = (c: Condition) => (c.onsetDateTime ?? c.recordedDate ?? '').slice(0, 10);

/** Agent-written notes: current DocumentReferences created for the patient, latest last. */
const notes = (ctx: GraderContext) => createdResources<DocumentReference>(ctx.changes, 'DocumentReference')
  .filter((d) => d.subject?.reference === `Patient/${ctx.patient}` && d.status === 'current');

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
    const date = said('diagnosed');
    if (date.slice(0, 10) !== onsetDate(f.condition)) mismatches.push(`expected diagnosis date ${onsetDate(f.condition)}, the answer gives ${JSON.stringify(date)}`);
    for (const [name, expected] of [['er', f.er], ['pr', f.pr], ['her2', f.her2]] as const) {
      const value = said(name);
      const got = /^(positive|pos|\+|true)$/.test(value) ? 'positive' : /^(negative|neg|-|false)$/.test(value) ? 'negative' : value;
      if (got !== expected) mismatches.push(`expected ${name.toUpperCase()} ${expected}, the answer gives ${JSON.stringify(value)}`);
    }
    return verdict(allOf(
      matchOf(mismatches, [`pathology: ${f.pathology.conclusion}; diagnosed ${onsetDate(f.condition)}`]),
      matchYesNo(answer, false, { fields: ['tumorMarkers'], yes: ['order tumor markers'], no: ['not recommended', 'not indicated'] }),
      matchYesNo(answer, false, { fields: ['petCt', 'petCT', 'pet'], yes: ['order pet'], no: ['not recommended', 'not indicated'] }),
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
    const status = (name: string, value: string) => value === 'positive' ? [`${name} positive`, `${name}+`, `${name}-positive`] : [`${name} negative`, `${name}-negative`, `${name}-`];
    const mustMention: (string | string[])[] = [f.histology.toLowerCase(), status('ER', f.er), status('PR', f.pr), status('HER2', f.her2), onsetDate(f.condition), 'mammogra'];
    if (f.grade) mustMention.push([`grade ${f.grade}`, `grade: ${f.grade}`]);
    return verdict(findNote(notes(ctx), { patient: ctx.patient, status: ['current'], mustMention }));
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
  writes_scoped: ({ patient, changes }) => {
    if (changes.length === 0) return fail('nothing was written (the consult note is missing)');
    const changed = changes.filter((c) => c.action !== 'created').map((c) => `${c.action} ${c.type}/${c.id}: existing records were not to be changed`);
    return verdict(allOf(writesOnlyFor(changes, patient), matchOf(changed)));
  },
};
