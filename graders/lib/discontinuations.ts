// Discontinuations: an existing order (MedicationRequest or ServiceRequest) moved to a stopped status, with a reason.
// R4: MedicationRequest.statusReason; a reason may also be a note. Deleting the order is not a discontinuation.
import type { Annotation, CodeableConcept, Resource } from '@medplum/fhirtypes';
import type { ResourceChange } from '../../contracts/gym-api.ts';
import { describeConcept, inCodeSet, type CodeSet } from './codings.ts';
import { matchOf, type Match } from './match.ts';

/**
 * The one status policy for "this order is no longer active" (every grader uses it; do not list statuses per task):
 *
 * - `stopped`, `cancelled` (MedicationRequest) and `revoked` (ServiceRequest's word for cancelled) count;
 * - `completed` counts: the order will not be carried out any further, which is what stopping it achieves;
 * - `on-hold` counts only when the task allows holding (`allowHold: true`), e.g. an ACE inhibitor held for
 *   hyperkalemia, where KDIGO 2024 CKD (section 3.6) lets the clinician reduce or interrupt RAS inhibition and
 *   re-challenge once potassium is controlled, so a hold is as defensible as a stop;
 * - `entered-in-error` counts only for an order the agent itself created in this episode (voiding its own mistake);
 *   on a pre-existing order it rewrites the chart's history, which is not a clinical decision;
 * - deletion never counts (the order and its history are gone), and neither do draft, active or unknown.
 */
export const NO_LONGER_ACTIVE = ['stopped', 'cancelled', 'revoked', 'completed'] as const;

export interface NoLongerActiveOptions {
  /** The task accepts holding the order (`on-hold`) as taking it out of use. */
  allowHold?: boolean;
  /** The order was created in this episode (then `entered-in-error` also counts). */
  createdInEpisode?: boolean;
}

type Order = Resource & { status?: string; statusReason?: CodeableConcept; note?: Annotation[] };

/** The statuses that count as "no longer active" under the policy, for these options. */
export function noLongerActiveStatuses(options: NoLongerActiveOptions = {}): string[] {
  return [...NO_LONGER_ACTIVE, ...(options.allowHold ? ['on-hold'] : []), ...(options.createdInEpisode ? ['entered-in-error'] : [])];
}

/** Whether the order (its current version) is out of use under the policy above. */
export function isNoLongerActive(order: { status?: string } | null | undefined, options: NoLongerActiveOptions = {}): boolean {
  return !!order?.status && noLongerActiveStatuses(options).includes(order.status);
}

export interface DiscontinuationExpectation extends Omit<NoLongerActiveOptions, 'createdInEpisode'> {
  /**
   * @deprecated Leave unset: the policy above decides (stopped, cancelled, revoked, completed; on-hold with
   * `allowHold`). When given, exactly these statuses are accepted, as before.
   */
  statuses?: string[];
  /** A reason must be recorded (statusReason or a note). */
  reasonRequired?: boolean;
  /** The reason must be one of these codes, or its text must contain one of `reasonWords`. */
  reasonCodes?: CodeSet[];
  reasonWords?: string[];
}

export function matchDiscontinuation(change: ResourceChange | undefined, target: string, expected: DiscontinuationExpectation = {}): Match<ResourceChange> {
  if (!change) return matchOf([`${target} was not changed`]);
  if (change.action === 'deleted' || change.action === 'created-then-deleted') return matchOf([`${target} was deleted instead of discontinued (the order history is lost)`]);
  const after = change.after as Order | null;
  const before = change.before as Order | null;
  if (!after) return matchOf([`${target} no longer exists`]);
  const mismatches: string[] = [];
  const options = { allowHold: expected.allowHold, createdInEpisode: change.action === 'created' };
  const statuses = expected.statuses ?? noLongerActiveStatuses(options);
  if (!after.status || !statuses.includes(after.status)) {
    const why = after.status === 'entered-in-error' ? ' (entered-in-error is only for an order created in error, not for stopping an existing one)'
      : after.status === 'on-hold' && !expected.allowHold ? ' (this task does not accept holding)' : '';
    mismatches.push(`${target} status is ${after.status ?? '(missing)'}, expected ${statuses.join(' or ')}${why}`);
  }
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
