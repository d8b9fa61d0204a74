// Expected values come from the chart, never hard-coded: these read the session's final state through the same
// FHIR client, so every variant is graded against its own patient.
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';
import type { FhirClient } from '../../harness/fhir-client.ts';
import { inCodeSet, isMedication, type CodeSet } from './codings.ts';

export function effectiveTime(obs: Observation): string {
  return obs.effectiveDateTime ?? obs.effectivePeriod?.start ?? obs.effectiveInstant ?? obs.issued ?? '';
}

/** The patient's observations with one of the codes, newest first (client-side sort: instants compared as times). */
export async function observations(fhir: FhirClient, patient: string, codes: CodeSet[], options: { before?: string } = {}): Promise<Observation[]> {
  const code = codes.flatMap((s) => s.codes.map((c) => `${s.system}|${c}`)).join(',');
  const found = await fhir.search<Observation>('Observation', { patient, code, _count: 1000 });
  return found
    .filter((o) => inCodeSet(o.code, codes) && o.status !== 'entered-in-error' && o.status !== 'cancelled')
    .filter((o) => !options.before || Date.parse(effectiveTime(o)) <= Date.parse(options.before))
    .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)));
}

export async function latestObservation(fhir: FhirClient, patient: string, codes: CodeSet[], options: { before?: string } = {}): Promise<Observation | undefined> {
  return (await observations(fhir, patient, codes, options)).find((o) => o.valueQuantity?.value !== undefined);
}

export function quantityOf(obs: Observation | undefined): { value: number; unit: string } | undefined {
  const q = obs?.valueQuantity;
  return q?.value === undefined ? undefined : { value: q.value, unit: q.unit ?? q.code ?? '' };
}

/** The patient's MedicationRequests for a drug (by code or ingredient), any status unless given. */
export async function medicationOrders(fhir: FhirClient, patient: string, drug: { codes?: string[]; ingredients?: string[] }, status?: string[]): Promise<MedicationRequest[]> {
  const found = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000, ...(status ? { status: status.join(',') } : {}) });
  return found.filter((o) => isMedication(o.medicationCodeableConcept, drug) && (!status || status.includes(o.status)));
}
