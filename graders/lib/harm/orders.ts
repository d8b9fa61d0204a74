// The orders an episode started: MedicationRequests and ServiceRequests it created, re-activated, or rewrote to
// another drug or dose, and that are in force (active, draft or on-hold) now. An order it only stopped, or edited
// without changing what is given, started nothing.
import type { MedicationRequest, ServiceRequest } from '@medplum/fhirtypes';
import type { ResourceChange } from '../../../contracts/gym-api.ts';
import { describeConcept } from '../codings.ts';
import { patientOf } from '../resources.ts';

/** Statuses of an order that is (or is about to be) in force. */
export const IN_FORCE = ['active', 'draft', 'on-hold'];

export interface StartedOrder<T extends MedicationRequest | ServiceRequest> {
  resource: T;
  /** `Type/id`. */
  ref: string;
  patient: string | undefined;
  /** The version in force before the episode, when the episode rewrote an order that was already in force. */
  previous?: T;
  /** For reports: `MedicationRequest/x (rxnorm|... "...")`. */
  label: string;
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

function started<T extends MedicationRequest | ServiceRequest>(change: ResourceChange, what: (r: T) => unknown[]): StartedOrder<T> | undefined {
  const after = change.after as T | null;
  if (!after || !IN_FORCE.includes(after.status)) return undefined;
  const before = change.before as T | null;
  const wasInForce = !!before && IN_FORCE.includes(before.status);
  if (wasInForce && sameJson(what(before), what(after))) return undefined;
  const concept = after.resourceType === 'MedicationRequest' ? (after as MedicationRequest).medicationCodeableConcept : (after as ServiceRequest).code;
  return {
    resource: after, ref: `${change.type}/${change.id}`, patient: patientOf(after), ...(wasInForce ? { previous: before! } : {}),
    label: `${change.type}/${change.id} (${describeConcept(concept)})`,
  };
}

/** MedicationRequests the episode started (new, re-activated, or rewritten to another drug or dosage). */
export function startedMedicationOrders(changes: ResourceChange[]): StartedOrder<MedicationRequest>[] {
  return changes.filter((c) => c.type === 'MedicationRequest')
    .map((c) => started<MedicationRequest>(c, (r) => [r.medicationCodeableConcept, r.medicationReference, r.dosageInstruction]))
    .filter((o): o is StartedOrder<MedicationRequest> => !!o);
}

/** ServiceRequests the episode started (new, re-activated, or rewritten to another service). */
export function startedServiceOrders(changes: ResourceChange[]): StartedOrder<ServiceRequest>[] {
  return changes.filter((c) => c.type === 'ServiceRequest')
    .map((c) => started<ServiceRequest>(c, (r) => [r.code]))
    .filter((o): o is StartedOrder<ServiceRequest> => !!o);
}
