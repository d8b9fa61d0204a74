// Expected values come from the chart, never hard-coded: these read the session's final state through the same
// FHIR client, so every variant is graded against its own patient.
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';
import type { FhirClient } from '../../contracts/fhir-client.ts';
import { inCodeSet, isMedication, type CodeSet } from './codings.ts';
import { convertValue } from '../../resources/units/analytes.ts';

export function effectiveTime(obs: Observation): string {
  return obs.effectiveDateTime ?? obs.effectivePeriod?.start ?? obs.effectiveInstant ?? obs.issued ?? '';
}

/** The clock hour of an instant as recorded, in the offset it was written in (a lab's local time: "2024-03-01T07:40:00-05:00"
 * is 7), not converted to UTC. NaN when the instant has no time. */
export function hourAsRecorded(instant: string): number {
  const m = /^\d{4}-\d{2}-\d{2}T(\d{2}):/.exec(instant);
  return m ? Number(m[1]) : Number.NaN;
}

export interface ResultWindow {
  /** Only results effective at or before this instant. */
  before?: string;
  /** With `before`: only results effective in the `days` days up to it (both ends inclusive). */
  days?: number;
}

/** A result with a numeric valueQuantity. */
export const hasValue = (o: Observation): boolean => o.valueQuantity?.value !== undefined;

/**
 * Results that count, newest first: coded in `codes` (when given: a search by code may be all the caller has), not
 * entered-in-error or cancelled, effective in the window. Instants are compared as times, not as strings, so a
 * "-05:00" offset sorts where it belongs. The sort is stable: equal times keep their search order.
 */
export function recordedResults(found: Observation[], codes: CodeSet[] | undefined, window: ResultWindow = {}): Observation[] {
  const to = window.before ? Date.parse(window.before) : undefined;
  const from = to !== undefined && window.days !== undefined ? to - window.days * 86400_000 : undefined;
  return found
    .filter((o) => (!codes || inCodeSet(o.code, codes)) && o.status !== 'entered-in-error' && o.status !== 'cancelled')
    .filter((o) => {
      if (to === undefined) return true;
      const t = Date.parse(effectiveTime(o));
      return t <= to && (from === undefined || t >= from);
    })
    .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)));
}

/** The search `code` parameter for a list of code sets: every system|code, comma-separated (any of them). */
export function codeParam(codes: CodeSet[]): string {
  return codes.flatMap((s) => s.codes.map((c) => `${s.system}|${c}`)).join(',');
}

/** The patient's observations with one of the codes (LOINC or a local code alike), newest first. */
export async function observations(fhir: FhirClient, patient: string, codes: CodeSet[], options: ResultWindow = {}): Promise<Observation[]> {
  const found = await fhir.search<Observation>('Observation', { patient, code: codeParam(codes), _count: 1000 });
  return recordedResults(found, codes, options);
}

/** The newest of the patient's observations that is `usable` (default: has a numeric value). */
export async function latestObservation(fhir: FhirClient, patient: string, codes: CodeSet[], options: ResultWindow & { usable?: (o: Observation) => boolean } = {}): Promise<Observation | undefined> {
  return (await observations(fhir, patient, codes, options)).find(options.usable ?? hasValue);
}

export function quantityOf(obs: Observation | undefined): { value: number; unit: string } | undefined {
  const q = obs?.valueQuantity;
  return q?.value === undefined ? undefined : { value: q.value, unit: q.unit ?? q.code ?? '' };
}

/**
 * An observation's value in `unit`: through the analyte table for molar conversions when its LOINC codes are given
 * (creatinine umol/L, glucose mmol/L), else UCUM (pounds, g/L). A value whose unit neither knows is taken as stated in
 * `unit`, as a reader of the chart would (an uncoded "mg/dl" creatinine).
 */
export function valueIn(obs: Observation | undefined, unit: string, loincCodes: string[] = []): number | undefined {
  const q = obs?.valueQuantity;
  if (q?.value === undefined) return undefined;
  return convertValue(q.value, q.code ?? q.unit ?? unit, unit, loincCodes) ?? q.value;
}

/** The patient's MedicationRequests for a drug (by code or ingredient), any status unless given. */
export async function medicationOrders(fhir: FhirClient, patient: string, drug: { codes?: string[]; ingredients?: string[] }, status?: string[]): Promise<MedicationRequest[]> {
  const found = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000, ...(status ? { status: status.join(',') } : {}) });
  return found.filter((o) => isMedication(o.medicationCodeableConcept, drug) && (!status || status.includes(o.status)));
}
