// update: PUT [base]/[type]/[id] (FHIR R4 3.1.0.5) with update-as-create, If-Match locking, and conditional
// update PUT [base]/[type]?criteria.
import type { Resource } from '@medplum/fhirtypes';
import type { FhirRequest, FhirResponse } from '../fhir-request.ts';
import { badRequest, preconditionFailed } from '../../resources/outcome.ts';
import { assertKnownType, assertValidId, resourceFromBody } from './write-checks.ts';
import { parseETag, writeResponse } from './respond.ts';
import { singleMatch } from './conditional.ts';
import { deferOrCheckReferences } from './create.ts';

export function update(req: FhirRequest, type: string, id: string): FhirResponse {
  assertKnownType(type);
  assertValidId(id);
  const resource = resourceFromBody(req, type);
  if (!resource.id) throw badRequest('An update needs the resource id in the body', ['id']);
  if (resource.id !== id) throw badRequest(`The body's id '${resource.id}' does not match the URL's id '${id}'`, ['id']);
  return storeUpdate(req, resource as Resource & { id: string });
}

export function conditionalUpdate(req: FhirRequest, type: string): FhirResponse {
  assertKnownType(type);
  const resource = resourceFromBody(req, type);
  const match = singleMatch(req, type, req.query);
  if (match) {
    if (resource.id && resource.id !== match) {
      throw badRequest(`The body's id '${resource.id}' differs from the matching resource ${type}/${match}`, ['id']);
    }
    return storeUpdate(req, { ...resource, id: match });
  }
  // No match: create, with the body's id when it has one (update-as-create).
  const id = resource.id ?? req.transaction?.assignedId ?? req.repo.newId();
  assertValidId(id);
  return storeUpdate(req, { ...resource, id });
}

/** Write a new version after the If-Match check; 201 when the resource did not exist (or was deleted). */
export function storeUpdate(req: FhirRequest, resource: Resource & { id: string }): FhirResponse {
  const current = req.repo.current(resource.resourceType, resource.id);
  assertIfMatch(req, current?.deleted ? undefined : current?.version);
  deferOrCheckReferences(req, resource);
  const stored = req.repo.write(resource);
  const existed = current !== undefined && !current.deleted;
  return writeResponse(req, stored, existed ? 200 : 201, `${existed ? 'Updated' : 'Created'} ${resource.resourceType}/${resource.id}`);
}

/** Optimistic locking (3.1.0.5.3): a stale or malformed If-Match version is 412. */
export function assertIfMatch(req: FhirRequest, currentVersion: number | undefined): void {
  const ifMatch = req.headers['if-match'];
  if (ifMatch === undefined) return;
  const wanted = parseETag(ifMatch);
  if (wanted === undefined) throw badRequest(`If-Match '${ifMatch}' is not a version ETag such as W/"1"`);
  if (currentVersion !== wanted) {
    throw preconditionFailed(`If-Match W/"${wanted}" does not match the current version ${currentVersion === undefined ? '(none)' : `W/"${currentVersion}"`}`);
  }
}
