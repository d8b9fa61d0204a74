// Service orders (ServiceRequest): code sets (LOINC/SNOMED), category, priority, intent, status, occurrence.
import type { ServiceRequest } from '@medplum/fhirtypes';
import { describeConcept, inCodeSet, SNOMED, type CodeSet } from './codings.ts';
import { bestOf, matchOf, type Match } from './match.ts';
import { checkOneOf, checkPatient, label } from './resources.ts';

/** SNOMED categories PhysicianBench's write tools use (FIELD-NOTES.md). */
export const SERVICE_CATEGORIES = {
  laboratory: { system: SNOMED, codes: ['108252007'] },
  imaging: { system: SNOMED, codes: ['363679005'] },
  procedure: { system: SNOMED, codes: ['387713003'] },
  referral: { system: SNOMED, codes: ['386053000', '3457005'] },
} satisfies Record<string, CodeSet>;

export interface ServiceExpectation {
  patient?: string;
  codes?: CodeSet[];
  category?: CodeSet[];
  priority?: string[];
  intent?: string[];
  status?: string[];
  /** The order's occurrence must fall on or before this date (YYYY-MM-DD or instant). */
  occurrenceBy?: string;
}

export function matchServiceRequest(order: ServiceRequest, expected: ServiceExpectation): Match<ServiceRequest> {
  const mismatches: string[] = [];
  if (order.resourceType !== 'ServiceRequest') return matchOf([`is a ${order.resourceType}, not a ServiceRequest`]);
  checkPatient(order, expected.patient, mismatches);
  if (expected.codes && !inCodeSet(order.code, expected.codes)) {
    mismatches.push(`code is ${describeConcept(order.code)}, expected one of ${expected.codes.map((s) => `${s.system}|${s.codes.join(',')}`).join('; ')}`);
  }
  if (expected.category && !inCodeSet(order.category, expected.category)) {
    mismatches.push(`category is ${describeConcept(order.category)}, expected ${expected.category.map((s) => `${s.system}|${s.codes.join(',')}`).join('; ')}`);
  }
  checkOneOf('priority', order.priority ?? 'routine', expected.priority, mismatches);
  checkOneOf('intent', order.intent, expected.intent, mismatches);
  checkOneOf('status', order.status, expected.status, mismatches);
  if (expected.occurrenceBy) {
    const when = order.occurrenceDateTime ?? order.occurrencePeriod?.start;
    if (!when) mismatches.push(`no occurrence date, expected by ${expected.occurrenceBy}`);
    else if (when.slice(0, 10) > expected.occurrenceBy.slice(0, 10)) mismatches.push(`occurrence ${when} is after ${expected.occurrenceBy}`);
  }
  return matchOf(mismatches, [`${label(order)}: ${describeConcept(order.code)}, status ${order.status}, priority ${order.priority ?? 'routine'}`], order);
}

export function findServiceRequest(orders: ServiceRequest[], expected: ServiceExpectation): Match<ServiceRequest> {
  return bestOf(orders, (o) => matchServiceRequest(o, expected), label, 'no ServiceRequest was written');
}
