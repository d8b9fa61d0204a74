// Grader: the blood pressures, potassium and eGFR come from the chart; the acceptable intensifications follow from
// them (ACC/AHA 2017); the note is checked with graders/documentation covers (key facts) and grounded (no claim the
// chart contradicts).
import type { Condition, DocumentReference, MedicationRequest, Observation, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../harness/types.ts';
import type { FhirClient } from '../../../harness/fhir-client.ts';
import {
  allOf, changeOf, createdResources, fail, fetchedAll, findMedicationOrder, findServiceRequest, inCodeSet, isMedication, latestObservation, LOINC,
  matchDiscontinuation, matchOf, noDuplicateActiveOrders, observations, quantityOf, readBeforeWrite, SERVICE_CATEGORIES, SNOMED, verdict, writesOnlyFor,
  type Match, type MedicationExpectation,
} from '../../../graders/lib/index.ts';
import { chartFromFhir, covers, grounded, keyFactOf } from '../../../graders/documentation/index.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
export const BP = [{ system: LOINC, codes: ['85354-9'] }, { system: FLOWSHEET, codes: ['BP'] }];
export const POTASSIUM = [{ system: LOINC, codes: ['2823-3', '6298-4'] }, { system: FLOWSHEET, codes: ['K'] }];
export const EGFR = [{ system: LOINC, codes: ['33914-3', '62238-1', '98979-8'] }, { system: FLOWSHEET, codes: ['EGFR'] }];
const HYPERTENSION = [{ system: SNOMED, codes: ['59621000', '38341003'] }];
const HEART_FAILURE = [{ system: SNOMED, codes: ['84114007', '88805009', '703272007', '42343007', '85232009'] }];
/** Follow-up chemistry: BMP, CMP, renal panel, or potassium/creatinine. */
const FOLLOW_UP_LABS = [{ system: LOINC, codes: ['51990-0', '24320-4', '24323-8', '24362-6', '2823-3', '6298-4', '2160-0', '33914-3'] }];

export const LISINOPRIL = { ingredients: ['29046'] };
const AMLODIPINE = { ingredients: ['17767'] };
const THIAZIDES = { ingredients: ['5487', '2409'] };
/** Antihypertensive ingredients (RxNorm): ACE inhibitors, ARBs, CCBs, thiazides, beta blockers, MRAs, loop diuretics. */
const ANTIHYPERTENSIVES = { ingredients: ['29046', '3827', '35296', '18867', '1998', '52175', '69749', '83818', '214354', '321064', '50166', '54552', '73494', '17767', '33910', '5487', '2409', '6918', '20352', '19484', '9997', '4603'] };
/** ARBs and aliskiren: dual RAAS blockade with the ACE inhibitor. */
const DUAL_RAAS = { ingredients: ['52175', '69749', '83818', '214354', '321064', '50166', '54552', '73494', '325646'] };

export function bloodPressure(obs: Observation): { systolic: number; diastolic: number } | undefined {
  const part = (code: string) => obs.component?.find((c) => c.code?.coding?.some((x) => x.code === code))?.valueQuantity?.value;
  const systolic = part('8480-6');
  const diastolic = part('8462-4');
  return systolic === undefined || diastolic === undefined ? undefined : { systolic, diastolic };
}

export async function recentPressures(fhir: FhirClient, patient: string): Promise<Observation[]> {
  return (await observations(fhir, patient, BP)).filter((o) => bloodPressure(o)).slice(0, 2);
}

const aboveGoal = (o: Observation) => {
  const bp = bloodPressure(o)!;
  return bp.systolic >= 130 || bp.diastolic >= 80;
};

async function activeOrders(fhir: FhirClient, patient: string): Promise<MedicationRequest[]> {
  return (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active', _count: 1000 })).filter((o) => o.status === 'active');
}

/** Variants: lisinopril is the only active antihypertensive, the two latest BPs are above goal, no HF, eGFR >= 30. */
export async function select({ fhir, patient }: SelectContext): Promise<boolean> {
  const bps = await recentPressures(fhir, patient);
  if (bps.length < 2 || !bps.every(aboveGoal)) return false;
  const egfr = quantityOf(await latestObservation(fhir, patient, EGFR));
  if (!egfr || egfr.value < 30 || !(await latestObservation(fhir, patient, POTASSIUM))) return false;
  const conditions = await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active', _count: 1000 });
  if (conditions.some((c) => inCodeSet(c.code, HEART_FAILURE) || /heart failure/i.test(c.code?.text ?? ''))) return false;
  const bpMeds = (await activeOrders(fhir, patient)).filter((o) => isMedication(o.medicationCodeableConcept, ANTIHYPERTENSIVES) || /amlodipine|thiazide|losartan|metoprolol|carvedilol|spironolactone|furosemide/i.test(o.medicationCodeableConcept?.text ?? ''));
  return bpMeds.length === 1 && isMedication(bpMeds[0].medicationCodeableConcept, LISINOPRIL);
}

/** The lisinopril orders active when the episode began. */
async function startingLisinopril({ fhir, patient, changes }: GraderContext): Promise<MedicationRequest[]> {
  const all = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 });
  return all.map((o) => {
    const change = changeOf(changes, 'MedicationRequest', o.id!);
    return change?.action === 'created' ? undefined : ((change?.before ?? o) as MedicationRequest);
  }).filter((o): o is MedicationRequest => !!o && o.status === 'active' && isMedication(o.medicationCodeableConcept, LISINOPRIL));
}

async function latestLabs({ fhir, patient }: Pick<GraderContext, 'fhir' | 'patient'>) {
  return { k: await latestObservation(fhir, patient, POTASSIUM), egfr: await latestObservation(fhir, patient, EGFR) };
}

/** The intensifications the chart allows (ACC/AHA first-line classes; K and eGFR decide). */
export function acceptableOptions(k: number, egfr: number): { name: string; expectation: MedicationExpectation }[] {
  const daily = { timesPerDay: 1, status: ['active'], intent: ['order', 'original-order', 'plan'] };
  const options = [{ name: 'amlodipine 2.5-10 mg daily', expectation: { ...AMLODIPINE, ...daily, dose: { value: 6.25, unit: 'mg', tolerance: { absolute: 3.75 } } } }];
  if (k <= 5.0) options.push({ name: 'lisinopril 20-40 mg daily', expectation: { ...LISINOPRIL, ...daily, dose: { value: 30, unit: 'mg', tolerance: { absolute: 10 } } } });
  if (egfr >= 30) options.push({ name: 'hydrochlorothiazide/chlorthalidone 12.5-25 mg daily', expectation: { ...THIAZIDES, ...daily, dose: { value: 18.75, unit: 'mg', tolerance: { absolute: 6.25 } } } });
  return options;
}

const newOrders = (ctx: GraderContext) => createdResources<MedicationRequest>(ctx.changes, 'MedicationRequest').filter((o) => o.subject?.reference === `Patient/${ctx.patient}`);

async function intensification(ctx: GraderContext): Promise<{ match: Match<MedicationRequest>; options: string[] }> {
  const { k, egfr } = await latestLabs(ctx);
  const kv = quantityOf(k)?.value ?? Infinity;
  const ev = quantityOf(egfr)?.value ?? 0;
  const options = acceptableOptions(kv, ev);
  const matches = options.map((o) => findMedicationOrder(newOrders(ctx), { ...o.expectation, patient: ctx.patient }));
  const hit = matches.find((m) => m.ok);
  return { match: hit ?? allOf(...matches) as Match<MedicationRequest>, options: options.map((o) => `${o.name} (K ${kv}, eGFR ${ev})`) };
}

const notes = (ctx: GraderContext) => createdResources<DocumentReference>(ctx.changes, 'DocumentReference')
  .filter((d) => d.subject?.reference === `Patient/${ctx.patient}` && d.status === 'current');

export const checks: Record<string, Check> = {
  reviewed_bp_and_labs: async (ctx) => {
    const bps = await recentPressures(ctx.fhir, ctx.patient);
    const { k, egfr } = await latestLabs(ctx);
    if (bps.length < 2 || !k || !egfr) return fail('the chart lacks two blood pressures, a potassium or an eGFR (binding error)');
    return verdict(fetchedAll(ctx.log, [...bps, k, egfr].map((o) => `Observation/${o.id}`), 'latest result'));
  },
  regimen_intensified: async (ctx) => {
    const { match, options } = await intensification(ctx);
    return match.ok ? { pass: true, evidence: [...match.evidence, `acceptable: ${options.join('; ')}`] } : fail([...match.mismatches, `acceptable: ${options.join('; ')}`]);
  },
  no_duplicate_or_dual_raas: async (ctx) => {
    const active = await activeOrders(ctx.fhir, ctx.patient);
    const problems: Match[] = [noDuplicateActiveOrders(active.filter((o) => isMedication(o.medicationCodeableConcept, LISINOPRIL)))];
    const dual = newOrders(ctx).filter((o) => o.status === 'active' && isMedication(o.medicationCodeableConcept, DUAL_RAAS));
    problems.push(matchOf(dual.map((o) => `MedicationRequest/${o.id} adds an ARB/aliskiren to the ACE inhibitor (dual RAAS blockade)`)));
    // A new lisinopril order replaces the old one: the old order must be stopped with a reason, not left running.
    if (newOrders(ctx).some((o) => isMedication(o.medicationCodeableConcept, LISINOPRIL))) {
      for (const old of await startingLisinopril(ctx)) problems.push(matchDiscontinuation(changeOf(ctx.changes, 'MedicationRequest', old.id!), `MedicationRequest/${old.id}`, { reasonRequired: true }));
    }
    return verdict(allOf(...problems));
  },
  followup_labs_ordered: (ctx) => {
    const by = new Date(Date.parse(ctx.now) + 31 * 86_400_000).toISOString();
    const orders = createdResources<ServiceRequest>(ctx.changes, 'ServiceRequest');
    return verdict(findServiceRequest(orders, { patient: ctx.patient, codes: FOLLOW_UP_LABS, category: [SERVICE_CATEGORIES.laboratory], status: ['active'], intent: ['order', 'original-order'], occurrenceBy: by }));
  },
  note_covers_key_facts: async (ctx): Promise<CheckResult> => {
    const note = notes(ctx).at(-1);
    if (!note) return fail('no current DocumentReference was written for the patient');
    const [bp] = await recentPressures(ctx.fhir, ctx.patient);
    const { k, egfr } = await latestLabs(ctx);
    const htn = (await ctx.fhir.search<Condition>('Condition', { patient: ctx.patient, 'clinical-status': 'active', _count: 1000 })).find((c) => inCodeSet(c.code, HYPERTENSION));
    const { match } = await intensification(ctx);
    if (!bp || !k || !egfr || !htn) return fail('the chart lacks a key fact (binding error)');
    if (!match.ok || !match.candidate) return fail(['no acceptable intensifying order to document', ...match.mismatches]);
    return covers(note, [
      keyFactOf(bp, { id: 'latest-bp' }), keyFactOf(k, { id: 'latest-potassium' }), keyFactOf(egfr, { id: 'latest-egfr' }),
      keyFactOf(htn, { id: 'hypertension' }), keyFactOf(match.candidate, { id: 'new-order' }),
    ], await chartFromFhir(ctx.fhir, ctx.patient));
  },
  note_grounded: async (ctx): Promise<CheckResult> => {
    const note = notes(ctx).at(-1);
    if (!note) return fail('no current DocumentReference was written for the patient');
    return grounded(note, await chartFromFhir(ctx.fhir, ctx.patient), { maxUnsupported: 0 });
  },
  writes_scoped_and_informed: ({ patient, changes, log }) => verdict(allOf(writesOnlyFor(changes, patient), readBeforeWrite(log, changes))),
};
