// Grader: key facts (latest eGFR, UACR, potassium; the CKD problem; the active ACE inhibitor/ARB) are chart resources
// found for the variant; the note must state them (graders/documentation covers) and contradict nothing (grounded).
// The KDIGO G/A categories are computed from the latest results, and the note's advice on an SGLT2 inhibitor is read
// for its direction against what KDIGO 2024 gives for this chart (start it, never start it below eGFR 20, or either).
import type { Condition, DocumentReference, MedicationRequest } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../contracts/task.ts';
import type { FhirClient } from '../../../contracts/fhir-client.ts';
import {
  allOf, answerField, answerText, classesOfOrder, createdResources, fail, fetchedAll, inCodeSet, latestObservation, matchNumber, matchOf, noteText,
  observations, quantityOf, readDirection, verdict,
} from '../../../graders/lib/index.ts';
import { chartFromFhir, covers, grounded, keyFactOf } from '../../../graders/documentation/index.ts';
import {
  A2_FROM, A3_ABOVE, CKD, EGFR, G_CATEGORIES, HEART_FAILURE, POTASSIUM, RAAS_CLASSES, SGLT2_CLASS, SGLT2_NAMES, SGLT2_START_MIN_EGFR, SGLT2_STRONG_UACR,
  TYPE_2_DIABETES, UACR,
} from './facts.ts';

export const isRaas = (o: MedicationRequest) => classesOfOrder(o).some((c) => RAAS_CLASSES.includes(c));
const isSglt2 = (o: MedicationRequest) => classesOfOrder(o).includes(SGLT2_CLASS);

export function gCategory(egfr: number): string {
  return G_CATEGORIES.find(([from]) => egfr >= from)![1];
}
export function aCategory(uacr: number): string {
  return uacr < A2_FROM ? 'A1' : uacr <= A3_ABOVE ? 'A2' : 'A3';
}

async function activeMeds(fhir: FhirClient, patient: string): Promise<MedicationRequest[]> {
  return (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active', _count: 1000 })).filter((o) => o.status === 'active');
}

async function activeProblems(fhir: FhirClient, patient: string): Promise<Condition[]> {
  return (await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active', _count: 1000 })).filter((c) => c.clinicalStatus?.coding?.[0]?.code === 'active');
}

/** Variants: an active ACE inhibitor/ARB, and the two latest eGFRs in the same G category. */
export async function select({ fhir, patient }: SelectContext): Promise<boolean> {
  const egfrs = (await observations(fhir, patient, EGFR)).filter((o) => o.valueQuantity?.value !== undefined);
  if (egfrs.length < 2 || gCategory(egfrs[0].valueQuantity!.value!) !== gCategory(egfrs[1].valueQuantity!.value!)) return false;
  if (!(await latestObservation(fhir, patient, POTASSIUM))) return false;
  return (await activeMeds(fhir, patient)).some(isRaas);
}

async function latestLabs({ fhir, patient }: Pick<GraderContext, 'fhir' | 'patient'>) {
  return {
    egfr: await latestObservation(fhir, patient, EGFR),
    uacr: await latestObservation(fhir, patient, UACR),
    k: await latestObservation(fhir, patient, POTASSIUM),
  };
}

async function theNote(changes: GraderContext['changes'], patient: string): Promise<DocumentReference | undefined> {
  return createdResources<DocumentReference>(changes, 'DocumentReference').filter((d) => d.subject?.reference === `Patient/${patient}` && d.status === 'current').at(-1);
}

/** "G3b", "3b", "stage 3B", "CKD G3b" -> "G3B"; "A2", "2", "a2 (moderately increased)" -> "A2". */
function normalGCategory(said: unknown): string | undefined {
  const m = /(?:^|[^a-z])g?\s*([1-5])\s*([ab])?(?![a-z0-9])/i.exec(String(said ?? '').replace(/\bstage\b/i, ''));
  return m ? `G${m[1]}${(m[2] ?? '').toUpperCase()}` : undefined;
}
function normalACategory(said: unknown): string | undefined {
  const m = /(?:^|[^a-z])a?\s*([1-3])(?![0-9])/i.exec(String(said ?? ''));
  return m ? `A${m[1]}` : undefined;
}
/** The categories as the answer states them: the JSON fields, or a "G3b A2" / "G3bA2" / "G3b/A2" in its text. */
function saidCategories(answer: unknown): { g?: string; a?: string } {
  const g = normalGCategory(answerField(answer, 'gCategory', 'gfrCategory', 'g', 'G'));
  const a = normalACategory(answerField(answer, 'aCategory', 'albuminuriaCategory', 'a', 'A'));
  if (g && a) return { g, a };
  const pair = /\bG\s*([1-5][ab]?)\s*[-,/ ]?\s*A\s*([1-3])\b/i.exec(answerText(answer));
  return { g: g ?? (pair ? `G${pair[1].toUpperCase()}` : undefined), a: a ?? (pair ? `A${pair[2]}` : undefined) };
}

/** What KDIGO 2024 gives for an SGLT2 inhibitor on this chart. */
async function sglt2Expectation(ctx: Pick<GraderContext, 'fhir' | 'patient'>): Promise<{ expect: 'recommend' | 'not-start' | 'either'; why: string } | undefined> {
  const { egfr, uacr } = await latestLabs(ctx);
  const e = quantityOf(egfr)?.value;
  const u = quantityOf(uacr)?.value;
  if (e === undefined || u === undefined) return undefined;
  const onSglt2 = (await activeMeds(ctx.fhir, ctx.patient)).some(isSglt2);
  if (onSglt2) return { expect: 'recommend', why: 'already on an SGLT2 inhibitor: continue it (KDIGO 2024 practice point 3.7.3)' };
  if (e < SGLT2_START_MIN_EGFR) return { expect: 'not-start', why: `eGFR ${e} < ${SGLT2_START_MIN_EGFR}: do not start an SGLT2 inhibitor (KDIGO 2024 practice point 3.7.3)` };
  const problems = await activeProblems(ctx.fhir, ctx.patient);
  const reasons = [
    ...(problems.some((c) => inCodeSet(c.code, TYPE_2_DIABETES)) ? ['type 2 diabetes'] : []),
    ...(problems.some((c) => inCodeSet(c.code, HEART_FAILURE)) ? ['heart failure'] : []),
    ...(u >= SGLT2_STRONG_UACR ? [`UACR ${u} >= ${SGLT2_STRONG_UACR} mg/g`] : []),
  ];
  if (reasons.length) return { expect: 'recommend', why: `eGFR ${e} >= ${SGLT2_START_MIN_EGFR} with ${reasons.join(', ')}: SGLT2 inhibitor recommended (KDIGO 2024 Rec 3.7.1, 1A)` };
  return { expect: 'either', why: `eGFR ${e}, UACR ${u} mg/g, no diabetes or heart failure: SGLT2 inhibitor suggested at most (KDIGO 2024 Rec 3.7.2, 2B)` };
}

export const checks: Record<string, Check> = {
  reviewed_kidney_labs: async (ctx) => {
    const { egfr, uacr, k } = await latestLabs(ctx);
    if (!egfr || !uacr || !k) return fail('the chart lacks an eGFR, UACR or potassium (binding error)');
    return verdict(fetchedAll(ctx.log, [egfr, uacr, k].map((o) => `Observation/${o.id}`), 'latest kidney lab'));
  },
  stated_latest_values: async (ctx) => {
    const { egfr, uacr } = await latestLabs(ctx);
    const e = quantityOf(egfr);
    const u = quantityOf(uacr);
    if (!e || !u) return fail('the chart lacks an eGFR or UACR');
    return verdict(allOf(
      matchNumber(ctx.answer, { value: e.value, tolerance: { absolute: 0.5 }, fields: ['egfr'], near: ['egfr'] }),
      matchNumber(ctx.answer, { value: u.value, tolerance: { absolute: 0.5 }, fields: ['uacr', 'acr'], near: ['uacr', 'acr'] }),
    ));
  },
  kdigo_categories: async (ctx) => {
    const { egfr, uacr } = await latestLabs(ctx);
    const e = quantityOf(egfr);
    const u = quantityOf(uacr);
    if (!e || !u) return fail('the chart lacks an eGFR or UACR');
    const g = gCategory(e.value).toUpperCase();
    const a = aCategory(u.value);
    const said = saidCategories(ctx.answer);
    const problems: string[] = [];
    if (said.g !== g) problems.push(`G category ${said.g ?? 'not given'}, expected ${g} (eGFR ${e.value}, Observation/${egfr!.id})`);
    if (said.a !== a) problems.push(`A category ${said.a ?? 'not given'}, expected ${a} (UACR ${u.value} mg/g, Observation/${uacr!.id})`);
    return verdict(matchOf(problems, [`expected ${g}${a}; answer ${said.g ?? '?'}${said.a ?? '?'}`]));
  },
  sglt2_advice: async (ctx): Promise<CheckResult> => {
    const note = await theNote(ctx.changes, ctx.patient);
    if (!note) return fail('no current DocumentReference was written for the patient');
    const expectation = await sglt2Expectation(ctx);
    if (!expectation) return fail('the chart lacks an eGFR or UACR (binding error)');
    const reading = readDirection(noteText(note), SGLT2_NAMES);
    const shown = reading.statements.map((s) => `${s.direction}${s.strong ? '' : ' (weak)'}: "${s.text.slice(0, 100)}" (${s.why})`);
    const strongFor = reading.statements.filter((s) => s.strong && s.direction === 'recommend');
    const strongAgainst = reading.statements.filter((s) => s.strong && s.direction === 'against');
    const anyFor = reading.statements.filter((s) => s.direction === 'recommend');
    const mismatches: string[] = [];
    if (expectation.expect === 'recommend' && (anyFor.length === 0 || (strongAgainst.length > 0 && strongFor.length === 0))) mismatches.push(`${expectation.why}; the note does not recommend it (${reading.direction})`);
    if (expectation.expect === 'not-start' && strongFor.length > 0) mismatches.push(`${expectation.why}; the note recommends starting one: ${strongFor.map((s) => `"${s.text.slice(0, 100)}"`).join('; ')}`);
    return verdict(matchOf(mismatches, [expectation.why, ...shown]));
  },
  note_covers_key_facts: async (ctx): Promise<CheckResult> => {
    const note = await theNote(ctx.changes, ctx.patient);
    if (!note) return fail('no current DocumentReference was written for the patient');
    const { egfr, uacr, k } = await latestLabs(ctx);
    const ckd = (await activeProblems(ctx.fhir, ctx.patient)).find((c) => inCodeSet(c.code, CKD));
    const raas = (await activeMeds(ctx.fhir, ctx.patient)).find(isRaas);
    if (!egfr || !uacr || !k || !ckd || !raas) return fail('the chart lacks a key fact (binding error)');
    const chart = await chartFromFhir(ctx.fhir, ctx.patient);
    return covers(note, [
      keyFactOf(egfr, { id: 'latest-egfr' }), keyFactOf(uacr, { id: 'latest-uacr' }), keyFactOf(k, { id: 'latest-potassium' }),
      keyFactOf(ckd, { id: 'ckd' }), keyFactOf(raas, { id: 'ace-inhibitor-or-arb' }),
    ], chart);
  },
  note_grounded: async (ctx): Promise<CheckResult> => {
    const note = await theNote(ctx.changes, ctx.patient);
    if (!note) return fail('no current DocumentReference was written for the patient');
    return grounded(note, await chartFromFhir(ctx.fhir, ctx.patient), { maxUnsupported: 0 });
  },
};
