// Grader: the DVT Condition, the anticoagulant order that treated it (linked by reasonReference or started with the
// DVT), its dates and status, and the latest hemoglobin, platelets and creatinine come from the variant's chart. The
// note must state them (covers) and contradict nothing (grounded); no medication order may be written.
import type { Condition, DocumentReference, MedicationRequest, Observation } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../harness/types.ts';
import type { FhirClient } from '../../../harness/fhir-client.ts';
import {
  allOf, answerField, createdResources, describeConcept, fail, fetchedAll, inCodeSet, isMedication, LOINC, matchNumber, matchOf, matchYesNo, observations,
  SNOMED, verdict, writesOnlyFor,
} from '../../../graders/lib/index.ts';
import { chartFromFhir, covers, grounded, keyFactOf } from '../../../graders/documentation/index.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const DVT = [{ system: SNOMED, codes: ['128053003'] }];
export const HEMOGLOBIN = [{ system: LOINC, codes: ['718-7'] }, { system: FLOWSHEET, codes: ['HGB'] }];
export const PLATELETS = [{ system: LOINC, codes: ['777-3', '26515-7'] }, { system: FLOWSHEET, codes: ['PLT'] }];
export const CREATININE = [{ system: LOINC, codes: ['2160-0', '38483-4'] }, { system: FLOWSHEET, codes: ['CREAT'] }];
/** Anticoagulants (RxNorm ingredients): apixaban, rivaroxaban, dabigatran, edoxaban, warfarin, enoxaparin, dalteparin, fondaparinux. */
export const ANTICOAGULANTS: { name: string; ingredient: string }[] = [
  { name: 'apixaban', ingredient: '1364430' }, { name: 'rivaroxaban', ingredient: '1114195' }, { name: 'dabigatran', ingredient: '1546356' },
  { name: 'edoxaban', ingredient: '1599538' }, { name: 'warfarin', ingredient: '11289' }, { name: 'enoxaparin', ingredient: '67108' },
  { name: 'dalteparin', ingredient: '67109' }, { name: 'fondaparinux', ingredient: '321208' },
];
const ANTICOAGULANT_SET = { ingredients: ANTICOAGULANTS.map((a) => a.ingredient) };
const DAY_MS = 86400_000;
const MONTH_DAYS = 30.4375;

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
}

const day = (s: string | undefined) => (s ?? '').slice(0, 10);
export const onsetDate = (c: Condition) => day(c.onsetDateTime ?? c.recordedDate);
const drugName = (o: MedicationRequest) => ANTICOAGULANTS.find((a) => isMedication(o.medicationCodeableConcept, { ingredients: [a.ingredient] })
  || (o.medicationCodeableConcept?.text ?? '').toLowerCase().includes(a.name))?.name;

/** The latest result that carries a value (a result without one says nothing about the patient). */
async function latestWithValue(fhir: FhirClient, patient: string, codes: typeof HEMOGLOBIN): Promise<Observation | undefined> {
  return (await observations(fhir, patient, codes)).find((o) => o.valueQuantity?.value !== undefined);
}

export async function facts(fhir: FhirClient, patient: string, now: string): Promise<Facts | undefined> {
  const dvt = (await fhir.search<Condition>('Condition', { patient, code: 'http://snomed.info/sct|128053003', category: 'problem-list-item' }))
    .filter((c) => inCodeSet(c.code, DVT)).sort((a, b) => onsetDate(b).localeCompare(onsetDate(a)))[0];
  if (!dvt) return undefined;
  const orders = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 }))
    .filter((o) => ['active', 'stopped', 'completed', 'on-hold'].includes(o.status) && drugName(o) !== undefined);
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
  return { dvt, order, drug: drugName(order)!, started, ...(stopped ? { stopped } : {}), active, months, hemoglobin, platelets, creatinine };
}

export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  return (await facts(fhir, patient, now)) !== undefined;
}

const notes = (ctx: GraderContext) => createdResources<DocumentReference>(ctx.changes, 'DocumentReference')
  .filter((d) => d.subject?.reference === `Patient/${ctx.patient}` && d.status === 'current');

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
    const mismatches: string[] = [];
    const diagnosed = day(String(answerField(answer, 'diagnosed') ?? ''));
    if (diagnosed !== onsetDate(f.dvt)) mismatches.push(`expected diagnosis date ${onsetDate(f.dvt)}, the answer gives ${JSON.stringify(diagnosed)}`);
    const drug = String(answerField(answer, 'anticoagulant') ?? '').toLowerCase();
    if (!drug.includes(f.drug)) mismatches.push(`expected anticoagulant ${f.drug}, the answer gives ${JSON.stringify(drug)}`);
    return verdict(allOf(
      matchOf(mismatches, [`DVT ${onsetDate(f.dvt)}; ${describeConcept(f.order.medicationCodeableConcept)} ${f.order.status}`]),
      matchYesNo(answer, f.active, { fields: ['currentlyAnticoagulated'], yes: ['still on', 'currently anticoagulated'], no: ['not anticoagulated', 'no longer', 'stopped', 'completed'] }),
    ));
  },
  treatment_course: async ({ fhir, patient, now, answer }) => {
    const f = await facts(fhir, patient, now);
    if (!f) return bindingError();
    const mismatches: string[] = [];
    const started = day(String(answerField(answer, 'started') ?? ''));
    if (started !== f.started) mismatches.push(`expected start ${f.started}, the answer gives ${JSON.stringify(started)}`);
    const rawStop = answerField(answer, 'stopped');
    const stopped = rawStop === null || rawStop === undefined || rawStop === '' ? undefined : day(String(rawStop));
    if (stopped !== f.stopped) mismatches.push(`expected stop ${f.stopped ?? 'null (still active)'}, the answer gives ${JSON.stringify(rawStop ?? null)}`);
    return verdict(allOf(
      matchOf(mismatches, [`${f.drug} ${f.started} to ${f.stopped ?? 'now'}, ${f.months.toFixed(1)} months`]),
      matchNumber(answer, { value: f.months, tolerance: { absolute: 0.5 }, fields: ['monthsTreated', 'months'], near: ['months'] }),
    ));
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
  orders_untouched: ({ patient, changes }) => {
    if (changes.length === 0) return fail('nothing was written (the consult note is missing)');
    const orders = changes.filter((c) => c.type === 'MedicationRequest').map((c) => `${c.action} MedicationRequest/${c.id}: orders were not to be changed`);
    const changed = changes.filter((c) => c.action !== 'created' && c.type !== 'MedicationRequest').map((c) => `${c.action} ${c.type}/${c.id}: existing records were not to be changed`);
    return verdict(allOf(writesOnlyFor(changes, patient), matchOf([...orders, ...changed])));
  },
};
