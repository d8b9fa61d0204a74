// Grader: latest eGFR, UACR and potassium, the CKD problem and the active ACE inhibitor/ARB come from the chart; the
// new SGLT2 inhibitor and UACR order from the episode's changes; the note is checked with covers and grounded.
import type { Condition, DocumentReference, MedicationRequest, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../harness/types.ts';
import type { FhirClient } from '../../../harness/fhir-client.ts';
import {
  allOf, changeOf, createdResources, fail, fetchedAll, findMedicationOrder, findServiceRequest, inCodeSet, isMedication, latestObservation, LOINC,
  matchOf, noDuplicateActiveOrders, quantityOf, SERVICE_CATEGORIES, SNOMED, verdict, writesOnlyFor,
} from '../../../graders/lib/index.ts';
import { chartFromFhir, covers, grounded, keyFactOf } from '../../../graders/documentation/index.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
export const EGFR = [{ system: LOINC, codes: ['33914-3', '62238-1', '98979-8'] }, { system: FLOWSHEET, codes: ['EGFR'] }];
export const UACR = [{ system: LOINC, codes: ['14959-1', '9318-7', '32294-1'] }, { system: FLOWSHEET, codes: ['UACR'] }];
export const POTASSIUM = [{ system: LOINC, codes: ['2823-3', '6298-4'] }, { system: FLOWSHEET, codes: ['K'] }];
export const CKD = [{ system: SNOMED, codes: ['433144002', '431857002', '700378005', '433146000', '709044004', '431855005', '431856006'] }];
/** SGLT2 inhibitors with kidney-outcome evidence (RxNorm ingredients): empagliflozin, dapagliflozin; canagliflozin for the duplicate check. */
export const SGLT2 = { ingredients: ['1545653', '1488564', '1373458'] };
/** ACE inhibitors and ARBs (RxNorm ingredients). */
export const RAAS = { ingredients: ['29046', '3827', '35296', '18867', '1998', '52175', '69749', '83818', '214354', '321064', '50166', '54552', '73494'] };

export async function activeRaas(fhir: FhirClient, patient: string): Promise<MedicationRequest[]> {
  return (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active', _count: 1000 }))
    .filter((o) => o.status === 'active' && isMedication(o.medicationCodeableConcept, RAAS));
}

export async function select({ fhir, patient }: SelectContext): Promise<boolean> {
  const egfr = quantityOf(await latestObservation(fhir, patient, EGFR));
  if (!egfr || egfr.value < 20 || egfr.value > 45) return false;
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active', _count: 1000 });
  if (active.some((o) => o.status === 'active' && (isMedication(o.medicationCodeableConcept, SGLT2) || /gliflozin/i.test(o.medicationCodeableConcept?.text ?? '')))) return false;
  return (await activeRaas(fhir, patient)).length > 0;
}

async function latestLabs({ fhir, patient }: Pick<GraderContext, 'fhir' | 'patient'>) {
  return { egfr: await latestObservation(fhir, patient, EGFR), uacr: await latestObservation(fhir, patient, UACR), k: await latestObservation(fhir, patient, POTASSIUM) };
}

/** ACE inhibitor/ARB orders active when the episode began. */
async function startingRaas({ fhir, patient, changes }: GraderContext): Promise<MedicationRequest[]> {
  const all = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 });
  return all.map((o) => {
    const change = changeOf(changes, 'MedicationRequest', o.id!);
    return change?.action === 'created' ? undefined : ((change?.before ?? o) as MedicationRequest);
  }).filter((o): o is MedicationRequest => !!o && o.status === 'active' && isMedication(o.medicationCodeableConcept, RAAS));
}

const newSglt2 = (ctx: GraderContext) => findMedicationOrder(
  createdResources<MedicationRequest>(ctx.changes, 'MedicationRequest'),
  { patient: ctx.patient, ingredients: ['1545653', '1488564'], dose: { value: 10, unit: 'mg', tolerance: { absolute: 0.01 } }, timesPerDay: 1, route: ['oral'], status: ['active'], intent: ['order', 'original-order'] },
);

const notes = (ctx: GraderContext) => createdResources<DocumentReference>(ctx.changes, 'DocumentReference')
  .filter((d) => d.subject?.reference === `Patient/${ctx.patient}` && d.status === 'current');

export const checks: Record<string, Check> = {
  reviewed_kidney_labs: async (ctx) => {
    const { egfr, uacr, k } = await latestLabs(ctx);
    if (!egfr || !uacr || !k) return fail('the chart lacks an eGFR, UACR or potassium (binding error)');
    return verdict(fetchedAll(ctx.log, [egfr, uacr, k].map((o) => `Observation/${o.id}`), 'latest kidney lab'));
  },
  sglt2_started: (ctx) => verdict(newSglt2(ctx)),
  raas_kept: async (ctx) => {
    const start = await startingRaas(ctx);
    if (!start.length) return fail('no active ACE inhibitor/ARB at the start (binding error)');
    const now = await activeRaas(ctx.fhir, ctx.patient);
    return verdict(matchOf(now.length ? [] : [`the ACE inhibitor/ARB (${start.map((o) => `MedicationRequest/${o.id}`).join(', ')}) is no longer active`], now.map((o) => `MedicationRequest/${o.id} active`)));
  },
  uacr_ordered: (ctx) => verdict(findServiceRequest(createdResources<ServiceRequest>(ctx.changes, 'ServiceRequest'), {
    patient: ctx.patient, codes: [{ system: LOINC, codes: ['14959-1', '9318-7', '32294-1'] }], category: [SERVICE_CATEGORIES.laboratory], status: ['active'], intent: ['order', 'original-order'],
  })),
  note_covers_key_facts: async (ctx): Promise<CheckResult> => {
    const note = notes(ctx).at(-1);
    if (!note) return fail('no current DocumentReference was written for the patient');
    const { egfr, uacr, k } = await latestLabs(ctx);
    const ckd = (await ctx.fhir.search<Condition>('Condition', { patient: ctx.patient, 'clinical-status': 'active', _count: 1000 })).find((c) => inCodeSet(c.code, CKD));
    const raas = (await activeRaas(ctx.fhir, ctx.patient))[0];
    const sglt2 = newSglt2(ctx).candidate;
    if (!egfr || !uacr || !k || !ckd || !raas) return fail('the chart lacks a key fact (binding error)');
    if (!sglt2) return fail('no SGLT2 inhibitor order to document');
    return covers(note, [
      keyFactOf(egfr, { id: 'latest-egfr' }), keyFactOf(uacr, { id: 'latest-uacr' }), keyFactOf(k, { id: 'latest-potassium' }),
      keyFactOf(ckd, { id: 'ckd' }), keyFactOf(raas, { id: 'ace-inhibitor-or-arb' }), keyFactOf(sglt2, { id: 'sglt2-inhibitor' }),
    ], await chartFromFhir(ctx.fhir, ctx.patient));
  },
  note_grounded: async (ctx): Promise<CheckResult> => {
    const note = notes(ctx).at(-1);
    if (!note) return fail('no current DocumentReference was written for the patient');
    return grounded(note, await chartFromFhir(ctx.fhir, ctx.patient), { maxUnsupported: 0 });
  },
  safe_writes: async (ctx) => {
    const active = (await ctx.fhir.search<MedicationRequest>('MedicationRequest', { patient: ctx.patient, status: 'active', _count: 1000 }))
      .filter((o) => o.status === 'active' && isMedication(o.medicationCodeableConcept, SGLT2));
    return verdict(allOf(writesOnlyFor(ctx.changes, ctx.patient), noDuplicateActiveOrders(active)));
  },
};
