// Discontinuations: an existing order (MedicationRequest or ServiceRequest) moved to a stopped status, with a reason.
// R4: MedicationRequest.statusReason; a reason may also be a note. Deleting the order is not a discontinuation.
import type { Annotation, CodeableConcept, Resource } from '@medplum/fhirtypes';
import type { ResourceChange } from '../../harness/types.ts';
import { describeConcept, inCodeSet, type CodeSet } from './codings.ts';
import { matchOf, type Match } from './match.ts';

export interface DiscontinuationExpectation {
  /** Accepted end statuses (default stopped, cancelled). */
  statuses?: string[];
  /** A reason must be recorded (statusReason or a note). */
  reasonRequired?: boolean;
  /** The reason must be one of these codes, or its text must contain one of `reasonWords`. */
  reasonCodes?: CodeSet[];
  reasonWords?: string[];
}

type Order = Resource & { status?: string; statusReason?: CodeableConcept; note?: Annotation[] };

export function matchDiscontinuation(change: ResourceChange | undefined, target: string, expected: DiscontinuationExpectation = {}): Match<ResourceChange> {
  if (!change) return matchOf([`${target} was not changed`]);
  if (change.action === 'deleted') return matchOf([`${target} was deleted instead of discontinued (the order history is lost)`]);
  const after = change.after as Order | null;
  const before = change.before as Order | null;
  if (!after) return matchOf([`${target} no longer exists`]);
  const mismatches: string[] = [];
  const statuses = expected.statuses ?? ['stopped', 'cancelled'];
  if (!after.status || !statuses.includes(after.status)) mismatches.push(`${target} status is ${after.status ?? '(missing)'}, expected ${statuses.join(' or ')}`);
  const reasonText = [after.statusReason?.text, ...(after.statusReason?.coding ?? []).map((c) => c.display), ...(after.note ?? []).map((n) => n.text)]
    .filter(Boolean).join(' ').toLowerCase();
  const hasReason = !!after.statusReason || (after.note?.length ?? 0) > (before?.note?.length ?? 0);
  if (expected.reasonRequired && !hasReason) mismatches.push(`${target} has no statusReason or new note giving the reason`);
  if (hasReason && (expected.reasonCodes || expected.reasonWords)) {
    const byCode = expected.reasonCodes ? inCodeSet(after.statusReason, expected.reasonCodes) : false;
    const byWord = expected.reasonWords?.some((w) => reasonText.includes(w.toLowerCase())) ?? false;
    if (!byCode && !byWord) mismatches.push(`${target} reason ${describeConcept(after.statusReason)} ${reasonText ? `("${reasonText}") ` : ''}does not name ${[...(expected.reasonWords ?? []), ...(expected.reasonCodes ?? []).flatMap((s) => s.codes)].join(' / ')}`);
  }
  return matchOf(mismatches, [`${target}: ${before?.status ?? '?'} -> ${after.status}`], change);
}
