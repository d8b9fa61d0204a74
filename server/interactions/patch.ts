// patch: PATCH [base]/[type]/[id] with a JSON Patch document (FHIR R4 3.1.0.6, RFC 6902),
// and conditional patch PATCH [base]/[type]?criteria.
import fastJsonPatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import type { Resource } from '@medplum/fhirtypes';
import type { FhirRequest, FhirResponse } from '../fhir-request.ts';
import { badRequest, FhirError, gone, issue, notFound, unprocessable, unsupportedMediaType } from '../../resources/outcome.ts';
import { assertKnownType, assertValid, assertValidId } from './write-checks.ts';
import { storeUpdate } from './update.ts';
import { singleMatch } from './conditional.ts';

const { applyPatch, JsonPatchError } = fastJsonPatch;

export function patch(req: FhirRequest, type: string, id: string): FhirResponse {
  assertKnownType(type);
  assertValidId(id);
  if (req.contentType !== 'application/json-patch+json') {
    throw unsupportedMediaType(`PATCH needs a JSON Patch body (Content-Type: application/json-patch+json), not '${req.contentType ?? 'none'}'`);
  }
  const operations = req.body;
  if (!Array.isArray(operations)) throw badRequest('A JSON Patch body is an array of operations');
  const current = req.repo.current(type, id);
  if (!current) throw notFound(`${type}/${id} is not known`);
  if (current.deleted || !current.json) throw gone(`${type}/${id} was deleted`);
  const patched = applyOperations(JSON.parse(current.json) as Resource, operations as Operation[]);
  // A patch of the root path ("") may replace the whole document with anything, null included.
  if (!patched || typeof patched !== 'object' || Array.isArray(patched)) {
    throw unprocessable('The patched document is not a resource');
  }
  if (patched.resourceType !== type || patched.id !== id) {
    throw unprocessable('A patch may not change the resource type or id', ['resourceType', 'id']);
  }
  assertValid(patched);
  return storeUpdate(req, patched as Resource & { id: string });
}

export function conditionalPatch(req: FhirRequest, type: string): FhirResponse {
  assertKnownType(type);
  const id = singleMatch(req, type, req.query);
  if (!id) throw notFound(`No ${type} matches the patch criteria`);
  return patch(req, type, id);
}

function applyOperations(document: Resource, operations: Operation[]): Resource {
  try {
    // validate=true checks each operation's shape; `test` failures throw too.
    return applyPatch(document, operations, true, true).newDocument;
  } catch (err) {
    if (err instanceof JsonPatchError) {
      const status = err.name === 'TEST_OPERATION_FAILED' ? 422 : 400;
      throw new FhirError(status, [issue('error', 'processing', `JSON Patch operation ${err.index ?? ''} failed: ${err.message.split('\n')[0]}`)]);
    }
    throw badRequest(`JSON Patch could not be applied: ${(err as Error).message}`);
  }
}
