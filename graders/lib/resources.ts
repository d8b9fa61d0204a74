// Small readers shared by the matchers: whose chart a resource belongs to, and a label for reports.
import type { Resource } from '@medplum/fhirtypes';
import { referenceId } from '../../contracts/fhir-client.ts';

export function label(resource: Resource): string {
  return `${resource.resourceType}/${resource.id ?? '(no id)'}`;
}

/** The patient a resource is about (subject, patient, or a Patient itself), or undefined. */
export function patientOf(resource: Resource): string | undefined {
  if (resource.resourceType === 'Patient') return resource.id;
  const loose = resource as unknown as Record<string, unknown>;
  for (const key of ['subject', 'patient', 'beneficiary']) {
    const ref = loose[key] as { reference?: string } | undefined;
    const id = referenceId(ref?.reference, 'Patient');
    if (id) return id;
  }
  const participants = loose.participant as { actor?: { reference?: string } }[] | undefined;
  for (const p of participants ?? []) {
    const id = referenceId(p.actor?.reference, 'Patient');
    if (id) return id;
  }
  return undefined;
}

export function checkPatient(resource: Resource, patient: string | undefined, mismatches: string[]): void {
  if (patient === undefined) return;
  const actual = patientOf(resource);
  if (actual !== patient) mismatches.push(`is for ${actual ? `Patient/${actual}` : 'no patient'}, expected Patient/${patient}`);
}

export function checkOneOf(name: string, actual: string | undefined, allowed: string[] | undefined, mismatches: string[]): void {
  if (!allowed || allowed.length === 0) return;
  if (actual === undefined || !allowed.includes(actual)) mismatches.push(`${name} is ${actual ?? '(missing)'}, expected ${allowed.join(' or ')}`);
}
