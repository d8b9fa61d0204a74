// Grader: the DVT Condition, the anticoagulant order that treated it (linked by reasonReference or started with the
// DVT), its dates and status, and the latest hemoglobin, platelets and creatinine come from the variant's chart. The
// note must state them (covers), contradict nothing (grounded) and take the direction CHEST 2021 gives for this chart
// about continuing anticoagulation beyond the treatment phase; no order may be written.
import type { Condition, DocumentReference, MedicationRequest, Observation, Procedure } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../contracts/task.ts';
import type { FhirClient } from '../../../contracts/fhir-client.ts';
import {
  allOf, answerField, classesOfOrder, codingsOf, createdResources, describeConcept, drugIngredientNames, fail, fetchedAll, inCodeSet, ingredientNamesOf,
  datesIn, matchDate, matchNumber, matchOf, matchYesNo, noteText, observations, readDirection, verdict,
} from '../../../graders/lib/index.ts';
import { chartFromFhir, covers, grounded, keyFactOf } from '../../../graders/documentation/index.ts';
import {
  ANTICOAGULANT_CLASSES, ANTICOAGULATION_NAMES, CANCER, CREATININE, DVT, HEMOGLOBIN, ICD10, MAJOR_SURGERY, PLATELETS, PROVOKING_WINDOW_DAYS,
} from './facts.ts';

const DAY_MS = 86400_000;
const MONTH_DAYS = 30.4375;

/** Beyond the 3-month treatment phase (CHEST 2021): stop (provoked by surgery), extend (active cancer), or open. */
export type Course = 'time-limited' | 'extended' | 'open';

export interface Facts {
  dvt: Condition;
  order: MedicationRequest;
  drug: string;
  started: string;
  stopped?: string;
  active: boolean;
  months: number;
  hemoglobin: Observation;
  platelets: Observation;
  creatinine: Observation;
  course: Course;
  why: string;
}

const day = (s: string | undefined) => (s ?? '').slice(0, 10);
export const onsetDate = (c: Condition) => day(c.onsetDateTime ?? c.recordedDate);
const isAnticoagulant = (o: MedicationRequest) => classesOfOrder(o).some((c) => ANTICOAGULANT_CLASSES.includes(c));

async function latestWithValue(fhir: FhirClient, patient: string, codes: typeof HEMOGLOBIN): Promise<Observation | undefined> {
  return (await observations(fhir, patient, codes)).find((o) => o.valueQuantity?.value !== undefined);
}

/** The course CHEST 2021 gives for this DVT: active cancer -> extended; major surgery in the 90 days before -> time-limited. */
async function courseOf(fhir: FhirClient, patient: string, dvt: Condition): Promise<{ course: Course; why: string }> {
  const conditions = await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active', _count: 1000 });
  const cancer = conditions.find((c) => c.clinicalStatus?.coding?.[0]?.code === 'active'
    && (inCodeSet(c.code, CANCER.codes) || codingsOf(c.code).some((x) => x.system === ICD10 && CANCER.icd10Prefix.test(x.code ?? ''))));
  if (cancer) return { course: 'extended', why: `active cancer (${describeConcept(cancer.code)}, Condition/${cancer.id})` };
  const onset = Date.parse(dvt.onsetDateTime ?? dvt.recordedDate ?? '');
  const procedures = await fhir.search<Procedure>('Procedure', { patient, _count: 1000 });
  const surgery = procedures.find((p) => {
    const when = Date.parse(p.performedDateTime ?? p.performedPeriod?.start ?? '');
    const text = [p.code?.text, ...codingsOf(p.code).map((c) => c.display)].join(' ').toLowerCase();
    return p.status === 'completed' && when <= onset && onset - when <= PROVOKING_WINDOW_DAYS * DAY_MS
      && (inCodeSet(p.code, MAJOR_SURGERY.codes) || MAJOR_SURGERY.words.some((w) => text.includes(w)));
  });
  if (surgery) return { course: 'time-limited', why: `provoked by ${describeConcept(surgery.code)} (Procedure/${surgery.id}) before the DVT` };
  return { course: 'open', why: 'no provoking surgery and no active cancer charted' };
}

export async function facts(fhir: FhirClient, patient: string, now: string): Promise<Facts | undefined> {
  const dvt = (await fhir.search<Condition>('Condition', { patient, code: 'http://snomed.info/sct|128053003', category: 'problem-list-item' }))
    .filter((c) => inCodeSet(c.code, DVT)).sort((a, b) => onsetDate(b).localeCompare(onsetDate(a)))[0];
  if (!dvt) return undefined;
  const orders = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 }))
    .filter((o) => ['active', 'stopped', 'completed', 'on-hold'].includes(o.status) && isAnticoagulant(o));
  const linked = orders.filter((o) => o.reasonReference?.some((r) => r.reference === `Condition/${dvt.id}`));
  const withDvt = orders.filter((o) => Math.abs(Date.parse(o.authoredOn ?? '') - Date.parse(dvt.onsetDateTime ?? '')) < 14 * DAY_MS);
  const order = (linked.length ? linked : withDvt).sort((a, b) => (b.authoredOn ?? '').localeCompare(a.authoredOn ?? ''))[0];
  if (!order) return undefined;
  const bounds = order.dosageInstruction?.[0]?.timing?.repeat?.boundsPeriod;
  const started = day(bounds?.start ?? order.authoredOn);
  const active = order.status === 'active';
  const stopped = active ? undefined : day(bounds?.end);
  if (!active && !stopped) return undefined;
  const months = (Date.parse(stopped ?? now) - Date.parse(started)) / DAY_MS / MONTH_DAYS;
  const hemoglobin = await latestWithValue(fhir, patient, HEMOGLOBIN);
  const platelets = await latestWithValue(fhir, patient, PLATELETS);
  const creatinine = await latestWithValue(fhir, patient, CREATININE);
  if (!hemoglobin?.valueQuantity || !platelets?.valueQuantity || !creatinine?.valueQuantity) return undefined;
  const drug = ingredientNamesOf(order.medicationCodeableConcept)[0];
  if (!drug) return undefined;
  return { dvt, order, drug, started, ...(stopped ? { stopped } : {}), active, months, hemoglobin, platelets, creatinine, ...(await courseOf(fhir, patient, dvt)) };
}

export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  return (await facts(fhir, patient, now)) !== undefined;
}

const notes = (ctx: GraderContext) => createdResources<DocumentReference>(ctx.changes, 'DocumentReference')
  .filter((d) => d.subject?.reference === `Patient/${ctx.patient}` && d.status === 'current');

/** The advice of a note: from its first Assessment/Plan/Recommendations heading on, or all of it without one. */
function recommendationPart(text: string): string {
  const heading = /^\s*(?:assessment|plan|recommendations?|impression|a\/p|advice)\b/im.exec(text);
  return heading ? text.slice(heading.index) : text;
}
// A clause that reports the chart: a past-tense stop, or any clause carrying a date ("started 2025-02-19").
const REPORTED_HISTORY = /\b(?:was|were|has been|had been)\s+(?:stopped|discontinued|completed|held|finished)\b/i;

const bindingError = () => fail('the chart lacks the DVT, its anticoagulant order or the labs (binding error)');

export const checks: Record<string, Check> = {
  reviewed_vte_history: async ({ fhir, patient, now, log }) => {
    const f = await facts(fhir, patient, now);
    if (!f) return bindingError();
    return verdict(fetchedAll(log, [`Condition/${f.dvt.id}`, `MedicationRequest/${f.order.id}`], 'DVT problem and anticoagulant order'));
  },
  reviewed_bleeding_labs: async ({ fhir, patient, now, log }) => {
    const f = await facts(fhir, patient, now);
    if (!f) return bindingError();
    return verdict(fetchedAll(log, [f.hemoglobin, f.platelets, f.creatinine].map((o) => `Observation/${o.id}`), 'latest hemoglobin/platelets/creatinine'));
  },
  anticoagulation_status: async ({ fhir, patient, now, answer }) => {
    const f = await facts(fhir, patient, now);
    if (!f) return bindingError();
    // The drug by any name (generic, brand, product): "Eliquis 5 mg" is apixaban.
    const said = String(answerField(answer, 'anticoagulant') ?? '');
    const named = drugIngredientNames({ text: said });
    const drug = matchOf(named.includes(f.drug) ? [] : [`expected anticoagulant ${f.drug}, the answer gives ${JSON.stringify(said)}`], [`${describeConcept(f.order.medicationCodeableConcept)} ${f.order.status}`]);
    return verdict(allOf(
      matchDate(answer, onsetDate(f.dvt), { fields: ['diagnosed'] }),
      drug,
      matchYesNo(answer, f.active, { fields: ['currentlyAnticoagulated'], yes: ['still on', 'currently anticoagulated'], no: ['not anticoagulated', 'no longer', 'stopped', 'completed'] }),
    ));
  },
  treatment_course: async ({ fhir, patient, now, answer }) => {
    const f = await facts(fhir, patient, now);
    if (!f) return bindingError();
    const rawStop = answerField(answer, 'stopped');
    const saysActive = rawStop === null || rawStop === undefined || rawStop === '' || /^(null|none|n\/a|ongoing|still active)$/i.test(String(rawStop).trim());
    const stop = f.stopped === undefined
      ? matchOf(saysActive ? [] : [`expected no stop date (still active), the answer gives ${JSON.stringify(rawStop)}`])
      : saysActive ? matchOf([`expected stop ${f.stopped}, the answer gives none`]) : matchDate(answer, f.stopped, { fields: ['stopped'] });
    return verdict(allOf(
      matchDate(answer, f.started, { fields: ['started'] }),
      stop,
      matchNumber(answer, { value: f.months, tolerance: { absolute: 0.5 }, fields: ['monthsTreated', 'months'], near: ['months'] }),
    ));
  },
  extended_phase_direction: async (ctx): Promise<CheckResult> => {
    const note = notes(ctx).at(-1);
    if (!note) return fail('no current DocumentReference was written for the patient');
    const f = await facts(ctx.fhir, ctx.patient, ctx.now);
    if (!f) return bindingError();
    const reading = readDirection(recommendationPart(noteText(note)), ANTICOAGULATION_NAMES);
    // A past-tense report of the chart ("apixaban was stopped on 2022-09-30") is history, not advice.
    const statements = reading.statements.filter((s) => !REPORTED_HISTORY.test(s.text) && datesIn(s.text).length === 0);
    const strong = statements.filter((s) => s.strong);
    const shown = statements.map((s) => `${s.direction}${s.strong ? '' : ' (weak)'}: "${s.text.slice(0, 100)}" (${s.why})`);
    const stops = strong.filter((s) => s.direction === 'against');
    const keeps = strong.filter((s) => s.direction === 'recommend');
    const mismatches: string[] = [];
    const advises = statements.filter((s) => s.direction === 'recommend');
    if (f.course === 'extended' && advises.length === 0) mismatches.push(`${f.why}: the note should recommend extended-phase anticoagulation (CHEST 2021), it does not`);
    if (f.course === 'time-limited' && (!statements.some((s) => s.direction === 'against') || keeps.some((k) => !/\buntil\b/i.test(k.text)))) mismatches.push(`${f.why}: the note should recommend stopping after the 3-month treatment phase (CHEST 2021), it does not`);
    if (f.course === 'open' && stops.length > 0 && keeps.length === 0) mismatches.push(`${f.why}: the note recommends stopping anticoagulation outright; whether to extend therapy is the visit's decision (CHEST 2021 suggests extended-phase therapy for unprovoked VTE)`);
    return verdict(matchOf(mismatches, [`course ${f.course}: ${f.why}`, ...shown]));
  },
  note_covers_key_facts: async (ctx): Promise<CheckResult> => {
    const note = notes(ctx).at(-1);
    if (!note) return fail('no current DocumentReference was written for the patient');
    const f = await facts(ctx.fhir, ctx.patient, ctx.now);
    if (!f) return bindingError();
    return covers(note, [
      keyFactOf(f.dvt, { id: 'dvt' }),
      keyFactOf(f.order, { id: 'anticoagulant', status: f.active ? 'active' : 'stopped' }),
      keyFactOf(f.hemoglobin, { id: 'latest-hemoglobin' }),
      keyFactOf(f.platelets, { id: 'latest-platelets' }),
      keyFactOf(f.creatinine, { id: 'latest-creatinine' }),
    ], await chartFromFhir(ctx.fhir, ctx.patient), { asOf: ctx.now });
  },
  note_grounded: async (ctx): Promise<CheckResult> => {
    const note = notes(ctx).at(-1);
    if (!note) return fail('no current DocumentReference was written for the patient');
    return grounded(note, await chartFromFhir(ctx.fhir, ctx.patient), { asOf: ctx.now, maxUnsupported: 0 });
  },
};
