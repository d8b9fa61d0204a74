// Grader: age (at now), the latest weight and creatinine (converted to mg/dL) and the apixaban order come from the
// chart; the label's dose-reduction criteria are counted from them. The right action is to change nothing.
import type { DocumentReference, MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';
import type { Check, SelectContext } from '../../../harness/types.ts';
import type { FhirClient } from '../../../harness/fhir-client.ts';
import {
  allOf, createdResources, describeConcept, doseOf, fail, fetchedAll, findNote, isMedication, latestObservation, LOINC, matchNumber, matchOf,
  matchYesNo, verdict, writesOnlyFor,
} from '../../../graders/lib/index.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
export const CREATININE = [{ system: LOINC, codes: ['2160-0', '38483-4'] }, { system: FLOWSHEET, codes: ['CREAT'] }];
export const WEIGHT = [{ system: LOINC, codes: ['29463-7', '3141-9'] }, { system: FLOWSHEET, codes: ['WEIGHT', 'WT'] }];
const APIXABAN = { ingredients: ['1364430'] };
export const isApixaban = (o: MedicationRequest) => isMedication(o.medicationCodeableConcept, APIXABAN) || /\bapixaban\b/i.test(o.medicationCodeableConcept?.text ?? '');

/** Creatinine in mg/dL (umol/L / 88.4). */
export function creatinineMgDl(obs: Observation | undefined): number | undefined {
  const q = obs?.valueQuantity;
  if (q?.value === undefined) return undefined;
  const unit = (q.code ?? q.unit ?? '').toLowerCase();
  return /umol|µmol|μmol/.test(unit) ? q.value / 88.4 : q.value;
}

function weightKg(obs: Observation | undefined): number | undefined {
  const q = obs?.valueQuantity;
  if (q?.value === undefined) return undefined;
  return /lb/.test((q.code ?? q.unit ?? '').toLowerCase()) ? q.value * 0.45359237 : q.value;
}

export interface DosingFacts {
  age: number; weight?: Observation; weightKg?: number; creatinine?: Observation; creatinineMgDl?: number;
  criteria: string[]; orders: MedicationRequest[]; currentMg?: number; labelMg: number;
}

export async function dosingFacts(fhir: FhirClient, patient: string, now: string): Promise<DosingFacts> {
  const p = await fhir.read<Patient>('Patient', patient);
  const birth = new Date(p.birthDate!);
  const at = new Date(now);
  let age = at.getUTCFullYear() - birth.getUTCFullYear();
  if (at.getUTCMonth() < birth.getUTCMonth() || (at.getUTCMonth() === birth.getUTCMonth() && at.getUTCDate() < birth.getUTCDate())) age--;
  const weight = await latestObservation(fhir, patient, WEIGHT);
  const creatinine = await latestObservation(fhir, patient, CREATININE);
  const wt = weightKg(weight);
  const cr = creatinineMgDl(creatinine);
  const criteria: string[] = [];
  if (age >= 80) criteria.push(`age ${age} >= 80`);
  if (wt !== undefined && wt <= 60) criteria.push(`weight ${wt} kg <= 60`);
  if (cr !== undefined && cr >= 1.5) criteria.push(`creatinine ${cr.toFixed(2)} mg/dL >= 1.5`);
  const orders = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active', _count: 1000 })).filter((o) => o.status === 'active' && isApixaban(o));
  const currentMg = orders.map((o) => doseOf(o.dosageInstruction?.[0])?.value).find((v) => v !== undefined);
  return { age, weight, weightKg: wt, creatinine, creatinineMgDl: cr, criteria, orders, currentMg, labelMg: criteria.length >= 2 ? 2.5 : 5 };
}

/** Variants: the active apixaban dose already matches the label (creatinine and weight on file). */
export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  const f = await dosingFacts(fhir, patient, now);
  return f.orders.length === 1 && f.weightKg !== undefined && f.creatinineMgDl !== undefined && f.currentMg === f.labelMg;
}

export const checks: Record<string, Check> = {
  reviewed_dosing_inputs: async ({ fhir, patient, now, log }) => {
    const f = await dosingFacts(fhir, patient, now);
    if (!f.weight || !f.creatinine || f.orders.length === 0) return fail('the chart lacks the apixaban order, a weight or a creatinine (binding error)');
    return verdict(fetchedAll(log, [...f.orders.map((o) => `MedicationRequest/${o.id}`), `Observation/${f.creatinine.id}`, `Observation/${f.weight.id}`], 'dosing input'));
  },
  stated_creatinine: async ({ fhir, patient, now, answer }) => {
    const f = await dosingFacts(fhir, patient, now);
    if (f.creatinineMgDl === undefined) return fail('the chart holds no creatinine');
    const q = f.creatinine!.valueQuantity!;
    const m = matchNumber(answer, { value: Math.round(f.creatinineMgDl * 100) / 100, tolerance: { absolute: 0.02 }, fields: ['creatinineMgDl', 'creatinine', 'scr'], near: ['creatinine'] });
    return verdict({ ...m, evidence: [...m.evidence, `Observation/${f.creatinine!.id}: ${q.value} ${q.unit ?? q.code}`] });
  },
  criteria_count: async ({ fhir, patient, now, answer }) => {
    const f = await dosingFacts(fhir, patient, now);
    const m = matchNumber(answer, { value: f.criteria.length, tolerance: { absolute: 0 }, fields: ['criteriaMet', 'criteria'], near: ['criteria'], window: 15 });
    return verdict({ ...m, evidence: [...m.evidence, `criteria met: ${f.criteria.join(', ') || 'none'}`] });
  },
  dose_judgement: ({ answer }) => verdict(matchYesNo(answer, true, { fields: ['doseAppropriate'], yes: ['dose is appropriate', 'appropriate dose', 'dose is correct', 'no change'], no: ['reduce', 'increase', 'inappropriate'] })),
  apixaban_unchanged: ({ changes }) => {
    const writes = changes.filter((c) => c.type === 'MedicationRequest');
    return verdict(matchOf(writes.map((c) => `${c.action} MedicationRequest/${c.id} (${describeConcept(((c.after ?? c.before) as MedicationRequest).medicationCodeableConcept)})`), [`${changes.length} changes checked`]));
  },
  dose_review_note: async ({ fhir, patient, now, changes }) => {
    const f = await dosingFacts(fhir, patient, now);
    if (f.weightKg === undefined) return fail('the chart holds no weight');
    return verdict(findNote(createdResources<DocumentReference>(changes, 'DocumentReference'), {
      patient, status: ['current'], mustMention: ['apixaban', ['creatinine', 'Cr ', 'SCr']], mustQuote: [{ value: f.weightKg, tolerance: { absolute: 0.5 }, what: 'latest weight (kg)' }],
    }));
  },
  writes_scoped: ({ patient, changes }) => verdict(allOf(writesOnlyFor(changes, patient))),
};
