// vread: GET [base]/[type]/[id]/_history/[vid] (FHIR R4 3.1.0.3). Old versions stay readable after a delete.
import type { FhirRequest, FhirResponse } from '../fhir-request.ts';
import { gone, notFound } from '../../resources/outcome.ts';
import { assertKnownType, assertValidId } from './write-checks.ts';
import { versionHeaders } from './respond.ts';

export function vread(req: FhirRequest, type: string, id: string, vid: string): FhirResponse {
  assertKnownType(type);
  assertValidId(id);
  const version = /^\d+$/.test(vid) ? Number(vid) : NaN;
  const stored = Number.isNaN(version) ? undefined : req.repo.version(type, id, version);
  if (!stored) throw notFound(`${type}/${id}/_history/${vid} is not known`);
  if (stored.deleted) throw gone(`${type}/${id} version ${vid} is a deletion`);
  return { status: 200, headers: versionHeaders(req, stored), body: stored.json ?? undefined, resourceIds: [`${type}/${id}`] };
}
