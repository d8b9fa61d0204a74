// Reading a session's changes (GET /gym/sessions/{id}/changes): what the episode created, updated or deleted.
import type { Resource } from '@medplum/fhirtypes';
import type { ResourceChange } from '../../contracts/gym-api.ts';
import { patientOf } from './resources.ts';

/** Resources of a type the episode created (and did not delete), as they are now. */
export function createdResources<T extends Resource = Resource>(changes: ResourceChange[], type: string): T[] {
  return changes.filter((c) => c.type === type && c.action === 'created' && c.after).map((c) => c.after as T);
}

/** Resources of a type the episode created or updated, as they are now. */
export function writtenResources<T extends Resource = Resource>(changes: ResourceChange[], type: string): T[] {
  return changes.filter((c) => c.type === type && c.after && (c.action === 'created' || c.action === 'updated')).map((c) => c.after as T);
}

/** The change to one resource, if the episode touched it. */
export function changeOf(changes: ResourceChange[], type: string, id: string): ResourceChange | undefined {
  return changes.find((c) => c.type === type && c.id === id);
}

/** Every change, with the patient it concerns (after, else before). */
export function changesByPatient(changes: ResourceChange[]): { change: ResourceChange; patient: string | undefined }[] {
  return changes.map((change) => {
    const resource = change.after ?? change.before;
    return { change, patient: resource ? patientOf(resource) : undefined };
  });
}
