// create: POST [base]/[type] (FHIR R4 3.1.0.4), with conditional create via If-None-Exist.
import type { FhirRequest, FhirResponse } from '../fhir-request.ts';
import { assertKnownType, checkReferences, resourceFromBody } from './write-checks.ts';
import { writeResponse } from './respond.ts';
import { singleMatch } from './conditional.ts';

export function create(req: FhirRequest, type: string): FhirResponse {
  assertKnownType(type);
  const resource = resourceFromBody(req, type);
  const ifNoneExist = req.headers['if-none-exist'];
  if (ifNoneExist) {
    const existing = singleMatch(req, type, ifNoneExist);
    if (existing) {
      const stored = req.repo.current(type, existing)!;
      return writeResponse(req, stored, 200, `${type}/${existing} already matches; nothing was created`);
    }
  }
  // The server assigns the id; one in the body is ignored (3.1.0.4).
  const id = req.transaction?.assignedId ?? req.repo.newId();
  const toWrite = { ...resource, id };
  deferOrCheckReferences(req, toWrite);
  const stored = req.repo.write(toWrite);
  return writeResponse(req, stored, 201, `Created ${type}/${id}`);
}

/** Inside a transaction, references are checked after every entry is written (entries may point forward). */
export function deferOrCheckReferences(req: FhirRequest, resource: Parameters<typeof checkReferences>[1]): void {
  if (req.transaction) req.transaction.pendingReferenceChecks.push(resource);
  else checkReferences(req, resource);
}
