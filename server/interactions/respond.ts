// Response headers and bodies shared by the interactions that return a stored version (FHIR R4 3.1.0.3-3.1.0.5).
import type { StoredVersion } from '../../resources/storage/store.ts';
import type { FhirRequest, FhirResponse } from '../fhir-request.ts';
import { preferredReturn } from '../fhir-request.ts';
import { informational } from '../../resources/outcome.ts';

export function etag(version: number): string {
  return `W/"${version}"`;
}

/** Parse `W/"3"` or `"3"` (or a bare 3) into a version number. */
export function parseETag(value: string): number | undefined {
  const match = /^\s*(?:W\/)?"?(\d+)"?\s*$/.exec(value);
  return match ? Number(match[1]) : undefined;
}

export function versionHeaders(req: FhirRequest, stored: StoredVersion): Record<string, string> {
  return {
    etag: etag(stored.version),
    'last-modified': new Date(stored.lastUpdated).toUTCString(),
  };
}

export function locationOf(req: FhirRequest, stored: StoredVersion): string {
  return `${req.baseUrl}/${stored.type}/${stored.id}/_history/${stored.version}`;
}

/** The reply to a successful create or update, honoring `Prefer: return=`. */
export function writeResponse(req: FhirRequest, stored: StoredVersion, status: number, message: string): FhirResponse {
  const headers = { ...versionHeaders(req, stored), location: locationOf(req, stored) };
  switch (preferredReturn(req)) {
    case 'minimal':
      return { status, headers };
    case 'OperationOutcome':
      return { status, headers, body: informational(message) };
    default:
      return { status, headers, body: stored.json ?? undefined, resourceIds: [`${stored.type}/${stored.id}`] };
  }
}
