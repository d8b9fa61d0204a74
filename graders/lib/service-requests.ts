// Service orders (ServiceRequest): what was ordered (an order intent group, or code sets), category, priority,
// intent, status, occurrence.
import type { ServiceRequest } from '@medplum/fhirtypes';
import { describeConcept, inCodeSet, SNOMED, type CodeSet } from './codings.ts';
import { bestOf, matchOf, type Match } from './match.ts';
import { matchOrderGroup, type OrderGroup } from './order-groups.ts';
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
  /**
   * The order intent(s) that satisfy the checkpoint (ORDER_GROUPS.potassium ...): every equivalent code across LOINC,
   * SNOMED, CPT, HCPCS and local codes, text-only orders, and referrals where the group allows them. Prefer this to
   * `codes`. When both are given, an order matching either passes.
   */
  group?: OrderGroup | OrderGroup[];
  /** Exact code sets (the older way; kept for the graders that still use it). */
  codes?: CodeSet[];
  /**
   * Expected categories. Advisory: an order without a category, or categorised only by other codes (v2-0074 LAB, a
   * local one), passes; only a category from SERVICE_CATEGORIES that names another kind of order (imaging for a lab
   * test) contradicts it. The code says what was ordered.
   */
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
  const evidence: string[] = [];
  const whatWasOrdered = checkWhatWasOrdered(order, expected);
  if (whatWasOrdered.mismatch) mismatches.push(whatWasOrdered.mismatch);
  if (whatWasOrdered.evidence) evidence.push(whatWasOrdered.evidence);
  if (expected.category && contradictsCategory(order, expected.category)) {
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
  return matchOf(mismatches, [`${label(order)}: ${describeConcept(order.code)}, status ${order.status}, priority ${order.priority ?? 'routine'}`, ...evidence], order);
}

/** The order is one of the expected groups or code sets (either passes); no expectation means any order. */
function checkWhatWasOrdered(order: ServiceRequest, expected: ServiceExpectation): { mismatch?: string; evidence?: string } {
  const groups = expected.group === undefined ? [] : Array.isArray(expected.group) ? expected.group : [expected.group];
  if (groups.length === 0 && !expected.codes) return {};
  if (expected.codes && inCodeSet(order.code, expected.codes)) return {};
  const results = groups.map((g) => matchOrderGroup(order, g));
  const hit = results.find((r) => r.ok);
  if (hit) return { evidence: hit.why };
  const wanted = [...groups.map((g) => g.label), ...(expected.codes ?? []).map((s) => `${s.system}|${s.codes.join(',')}`)].join(groups.length > 0 ? '; or ' : '; ');
  const reasons = results.map((r) => r.why).join('; ');
  return { mismatch: `code is ${describeConcept(order.code)}, expected ${groups.length > 0 ? '' : 'one of '}${wanted}${reasons ? ` (${reasons})` : ''}` };
}

/** The order names another known kind (one of SERVICE_CATEGORIES) and none of the expected categories. */
function contradictsCategory(order: ServiceRequest, expected: CodeSet[]): boolean {
  if (inCodeSet(order.category, expected)) return false;
  return inCodeSet(order.category, Object.values(SERVICE_CATEGORIES));
}

export function findServiceRequest(orders: ServiceRequest[], expected: ServiceExpectation): Match<ServiceRequest> {
  return bestOf(orders, (o) => matchServiceRequest(o, expected), label, 'no ServiceRequest was written');
}
