// delete: DELETE [base]/[type]/[id] (FHIR R4 3.1.0.7) and conditional delete DELETE [base]/[type]?criteria.
// Deleting is idempotent: a second delete succeeds; a resource that never existed is 404.
import type { FhirRequest, FhirResponse } from '../fhir-request.ts';
import { informational, notFound } from '../../resources/outcome.ts';
import { assertKnownType, assertValidId } from './write-checks.ts';
import { assertIfMatch, } from './update.ts';
import { etag } from './respond.ts';
import { singleMatch } from './conditional.ts';

export function deleteResource(req: FhirRequest, type: string, id: string): FhirResponse {
  assertKnownType(type);
  assertValidId(id);
  const current = req.repo.current(type, id);
  if (!current) throw notFound(`${type}/${id} is not known`);
  assertIfMatch(req, current.deleted ? undefined : current.version);
  if (current.deleted) return { status: 200, body: informational(`${type}/${id} was already deleted`) };
  const tombstone = req.repo.remove(type, id)!;
  return { status: 200, headers: { etag: etag(tombstone.version) }, body: informational(`Deleted ${type}/${id}`) };
}

export function conditionalDelete(req: FhirRequest, type: string): FhirResponse {
  assertKnownType(type);
  const id = singleMatch(req, type, req.query);
  if (!id) throw notFound(`No ${type} matches the delete criteria`);
  return deleteResource(req, type, id);
}
