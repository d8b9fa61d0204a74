// read: GET [base]/[type]/[id] (FHIR R4 3.1.0.2), with conditional read via If-None-Match / If-Modified-Since.
import type { FhirRequest, FhirResponse } from '../fhir-request.ts';
import { gone, notFound } from '../../resources/outcome.ts';
import { assertKnownType, assertValidId } from './write-checks.ts';
import { etag, parseETag, versionHeaders } from './respond.ts';

export function read(req: FhirRequest, type: string, id: string): FhirResponse {
  assertKnownType(type);
  assertValidId(id);
  const stored = req.repo.current(type, id);
  if (!stored) throw notFound(`${type}/${id} is not known`);
  if (stored.deleted) throw gone(`${type}/${id} was deleted`, undefined);
  const headers = versionHeaders(req, stored);
  if (notModified(req, stored.version, stored.lastUpdated)) return { status: 304, headers };
  return { status: 200, headers, body: stored.json ?? undefined, resourceIds: [`${type}/${id}`] };
}

/** RFC 7232 conditional GET: If-None-Match takes precedence over If-Modified-Since. */
function notModified(req: FhirRequest, version: number, lastUpdated: string): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch) {
    return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || parseETag(tag) === version || tag.trim() === etag(version));
  }
  const ifModifiedSince = req.headers['if-modified-since'];
  if (ifModifiedSince) {
    const since = Date.parse(ifModifiedSince);
    // HTTP dates have whole-second precision: compare at that precision.
    if (!Number.isNaN(since)) return Math.floor(Date.parse(lastUpdated) / 1000) * 1000 <= since;
  }
  return false;
}
