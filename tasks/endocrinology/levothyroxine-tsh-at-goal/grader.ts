// Grader: the latest TSH and the active levothyroxine order come from the chart; with TSH in range the right action is
// to change nothing and document the reasoning.
import type { DocumentReference, MedicationRequest } from '@medplum/fhirtypes';
import type { Check, SelectContext } from '../../../harness/types.ts';
import type { FhirClient } from '../../../harness/fhir-client.ts';
import {
  allOf, answerField, convert, createdResources, describeConcept, doseOf, effectiveTime, fail, fetchedAll, findNote, isMedication, latestObservation,
  LOINC, matchNumber, matchOf, matchYesNo, quantityOf, verdict, writesOnlyFor,
} from '../../../graders/lib/index.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
export const TSH = [{ system: LOINC, codes: ['3016-3', '11580-8'] }, { system: FLOWSHEET, codes: ['TSH'] }];
export const isLevothyroxine = (o: MedicationRequest) => isMedication(o.medicationCodeableConcept, { ingredients: ['10582'] }) || /levothyroxine/i.test(o.medicationCodeableConcept?.text ?? '');

/** Dose in mcg: the dosage's dose, else the strength in the product name ("levothyroxine sodium 0.1 MG Oral Tablet"). */
export function doseMcg(o: MedicationRequest): number | undefined {
  const d = doseOf(o.dosageInstruction?.[0]);
  const fromDose = d ? convert(d.value, d.unit === 'ug' ? 'mcg' : d.unit, 'mcg') : undefined;
  if (fromDose !== undefined) return Math.round(fromDose * 1000) / 1000;
  const m = /(\d+(?:\.\d+)?)\s*(mg|mcg|ug)\b/i.exec(o.medicationCodeableConcept?.text ?? '');
  return m ? convert(Number(m[1]), m[2].toLowerCase() === 'ug' ? 'mcg' : m[2], 'mcg') : undefined;
}

async function levothyroxine(fhir: FhirClient, patient: string): Promise<MedicationRequest[]> {
  return (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active', _count: 1000 })).filter((o) => o.status === 'active' && isLevothyroxine(o));
}

/** Variants: one active levothyroxine order; latest TSH in 0.4-4.0, measured within 365 days before now. */
export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  const orders = await levothyroxine(fhir, patient);
  if (orders.length !== 1 || doseMcg(orders[0]) === undefined) return false;
  const latest = await latestObservation(fhir, patient, TSH);
  const tsh = quantityOf(latest);
  return !!latest && !!tsh && tsh.value >= 0.4 && tsh.value <= 4.0 && Date.parse(now) - Date.parse(effectiveTime(latest)) <= 365 * 86400_000;
}

export const checks: Record<string, Check> = {
  reviewed_tsh: async ({ fhir, patient, log }) => {
    const latest = await latestObservation(fhir, patient, TSH);
    if (!latest) return fail('the chart holds no TSH');
    return verdict(fetchedAll(log, [`Observation/${latest.id}`], 'latest TSH'));
  },
  reviewed_levothyroxine_order: async ({ fhir, patient, log }) => {
    const orders = await levothyroxine(fhir, patient);
    if (orders.length === 0) return fail('no active levothyroxine order');
    return verdict(fetchedAll(log, orders.map((o) => `MedicationRequest/${o.id}`), 'levothyroxine order'));
  },
  stated_tsh_and_dose: async ({ fhir, patient, answer }) => {
    const latest = await latestObservation(fhir, patient, TSH);
    const tsh = quantityOf(latest);
    const order = (await levothyroxine(fhir, patient))[0];
    const mcg = order ? doseMcg(order) : undefined;
    if (!latest || !tsh || mcg === undefined) return fail('the chart lacks a TSH or a readable levothyroxine dose');
    const said = String(answerField(answer, 'tshDate', 'date') ?? '');
    const when = effectiveTime(latest);
    // The local date written in the timestamp or its UTC date both count.
    const dates = [when.slice(0, 10), new Date(Date.parse(when)).toISOString().slice(0, 10)];
    return verdict(allOf(
      matchNumber(answer, { value: tsh.value, tolerance: { absolute: 0.01 }, fields: ['tsh'], near: ['tsh'] }),
      matchOf(dates.includes(said.slice(0, 10)) ? [] : [`tshDate "${said}", expected ${dates[0]} (Observation/${latest.id})`]),
      matchNumber(answer, { value: mcg, unit: 'mcg', tolerance: { absolute: 0.5 }, fields: ['currentDoseMcg', 'doseMcg', 'currentDose'], near: ['dose'] }),
    ));
  },
  no_increase_judgement: ({ answer }) => verdict(matchYesNo(answer, false, { fields: ['increaseDose'], yes: ['increase the dose', 'increase levothyroxine'], no: ['no change', 'do not increase', "don't increase", 'continue current dose'] })),
  levothyroxine_unchanged: ({ changes }) => {
    const writes = changes.filter((c) => c.type === 'MedicationRequest');
    return verdict(matchOf(writes.map((c) => `${c.action} MedicationRequest/${c.id} (${describeConcept(((c.after ?? c.before) as MedicationRequest).medicationCodeableConcept)}): TSH is in range, no change was indicated`), [`${changes.length} changes checked`]));
  },
  rationale_note: async ({ fhir, patient, changes }) => {
    const tsh = quantityOf(await latestObservation(fhir, patient, TSH));
    if (!tsh) return fail('the chart holds no TSH');
    return verdict(findNote(createdResources<DocumentReference>(changes, 'DocumentReference'), {
      patient, status: ['current'], mustMention: ['levothyroxine', 'TSH'], mustQuote: [{ value: tsh.value, tolerance: { absolute: 0.005 }, what: 'latest TSH' }],
    }));
  },
  writes_scoped: ({ patient, changes }) => verdict(writesOnlyFor(changes, patient)),
};
