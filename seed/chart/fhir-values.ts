// The small FHIR datatypes every builder writes: a CodeableConcept from a code table, a Reference, a UCUM Quantity.
import type { CodeableConcept, Quantity, Reference } from '@medplum/fhirtypes';
import { UCUM, codingOf, type CodeTable } from '../codes/index.ts';

export const cc = (table: CodeTable, code: string, text?: string): CodeableConcept =>
  text ? { coding: [codingOf(table, code)], text } : { coding: [codingOf(table, code)] };

// Typed loosely: medplum types references by target, we build them from strings.
export const ref = (type: string, id: string, display?: string): Reference<any> => (display ? { reference: `${type}/${id}`, display } : { reference: `${type}/${id}` });

export function quantity(value: number, unit: string): Quantity {
  return { value, unit: UCUM.concepts[unit] ?? unit, system: UCUM.system, code: unit };
}
