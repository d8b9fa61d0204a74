// Grader: key facts (latest eGFR, UACR, potassium; the CKD problem; the active ACE inhibitor/ARB) are chart resources
// found for the variant; the note must state them (graders/documentation covers) and contradict nothing (grounded).
import type { Condition, DocumentReference, MedicationRequest } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../harness/types.ts';
import type { FhirClient } from '../../../harness/fhir-client.ts';
import {
  allOf, answerField, createdResources, fail, fetchedAll, inCodeSet, isMedication, latestObservation, LOINC, matchNumber, matchOf, observations,
  quantityOf, SNOMED, verdict, writesOnlyFor,
} from '../../../graders/lib/index.ts';
import { chartFromFhir, covers, grounded, keyFactOf } from '../../../graders/documentation/index.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
export const EGFR = [{ system: LOINC, codes: ['33914-3', '62238-1', '48642-3', '98979-8'] }, { system: FLOWSHEET, codes: ['EGFR'] }];
export const UACR = [{ system: LOINC, codes: ['14959-1', '9318-7', '32294-1'] }, { system: FLOWSHEET, codes: ['UACR'] }];
export const POTASSIUM = [{ system: LOINC, codes: ['2823-3', '6298-4'] }, { system: FLOWSHEET, codes: ['K'] }];
const CKD = [{ system: SNOMED, codes: ['433144002', '431857002', '700378005', '433146000', '709044004', '431855005', '431856006'] }];
/** ACE inhibitors and ARBs (RxNorm ingredients). */
export const RAAS = { ingredients: ['29046', '3827', '35296', '18867', '1998', '52175', '69749', '83818', '214354', '321064', '50166', '54552', '73494'] };
export const isRaas = (o: MedicationRequest) => isMedication(o.medicationCodeableConcept, RAAS) || /\b(lisinopril|enalapril|ramipril|benazepril|captopril|losartan|valsartan|irbesartan|olmesartan|candesartan|telmisartan)\b/i.test(o.medicationCodeableConcept?.text ?? '');

export function gCategory(egfr: number): string {
  return egfr >= 90 ? 'G1' : egfr >= 60 ? 'G2' : egfr >= 45 ? 'G3a' : egfr >= 30 ? 'G3b' : egfr >= 15 ? 'G4' : 'G5';
}
export function aCategory(uacr: number): string {
  return uacr < 30 ? 'A1' : uacr <= 300 ? 'A2' : 'A3';
}

async function activeRaas(fhir: FhirClient, patient: string): Promise<MedicationRequest[]> {
  return (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active', _count: 1000 })).filter((o) => o.status === 'active' && isRaas(o));
}

async function activeCkd(fhir: FhirClient, patient: string): Promise<Condition[]> {
  return (await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active', _count: 1000 }))
    .filter((c) => inCodeSet(c.code, CKD) && c.clinicalStatus?.coding?.[0]?.code === 'active');
}

/** Variants: an active ACE inhibitor/ARB, and the two latest eGFRs in the same G category. */
export async function select({ fhir, patient }: SelectContext): Promise<boolean> {
  const egfrs = (await observations(fhir, patient, EGFR)).filter((o) => o.valueQuantity?.value !== undefined);
  if (egfrs.length < 2 || gCategory(egfrs[0].valueQuantity!.value!) !== gCategory(egfrs[1].valueQuantity!.value!)) return false;
  if (!(await latestObservation(fhir, patient, POTASSIUM))) return false;
  return (await activeRaas(fhir, patient)).length > 0;
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
    const g = gCategory(e.value);
    const a = aCategory(u.value);
    const saidG = String(answerField(ctx.answer, 'gCategory', 'gfrCategory', 'g') ?? '').trim();
    const saidA = String(answerField(ctx.answer, 'aCategory', 'albuminuriaCategory', 'a') ?? '').trim();
    const problems: string[] = [];
    if (saidG.toUpperCase() !== g.toUpperCase()) problems.push(`G category "${saidG}", expected ${g} (eGFR ${e.value}, Observation/${egfr!.id})`);
    if (saidA.toUpperCase() !== a.toUpperCase()) problems.push(`A category "${saidA}", expected ${a} (UACR ${u.value} mg/g, Observation/${uacr!.id})`);
    return verdict(matchOf(problems, [`expected ${g}${a}; answer ${saidG}${saidA}`]));
  },
  note_covers_key_facts: async (ctx): Promise<CheckResult> => {
    const note = await theNote(ctx.changes, ctx.patient);
    if (!note) return fail('no current DocumentReference was written for the patient');
    const { egfr, uacr, k } = await latestLabs(ctx);
    const ckd = (await activeCkd(ctx.fhir, ctx.patient))[0];
    const raas = (await activeRaas(ctx.fhir, ctx.patient))[0];
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
  note_only: ({ patient, changes }) => verdict(allOf(
    writesOnlyFor(changes, patient),
    matchOf(changes.filter((c) => c.type !== 'DocumentReference').map((c) => `${c.action} ${c.type}/${c.id}: this consult asked for recommendations only`)),
  )),
};
