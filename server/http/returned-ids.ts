// Which resources a FHIR answer returned, read from the answer itself before it is serialized: the resource, each
// Bundle entry's resource (or, for an entry without one, its fullUrl or response Location), or the Location header
// of a bodiless answer. The audit log records them (graders check "was the latest result actually fetched").
import type { FhirResponse } from '../fhir-request.ts';

type Loose = { resourceType?: unknown; id?: unknown; entry?: unknown };

export function returnedResourceIds(response: FhirResponse): string[] {
  const ids: string[] = [...(response.resourceIds ?? [])];
  // A JSON-text body (a stored version) names its resource in resourceIds; an object body is read here.
  if (typeof response.body === 'object') collectIds(response.body, ids);
  const location = response.headers?.location ?? response.headers?.Location;
  if (ids.length === 0 && location) {
    const id = idFromLocation(location);
    if (id) ids.push(id);
  }
  return ids;
}

function collectIds(body: unknown, ids: string[]): void {
  if (!body || typeof body !== 'object') return;
  const resource = body as Loose;
  if (resource.resourceType === 'Bundle' && Array.isArray(resource.entry)) {
    for (const entry of resource.entry as ({ fullUrl?: string; resource?: Loose; response?: { location?: string } } | null)[]) {
      // An entry without a resource (a deletion in history, a minimal transaction response) names it by URL.
      const url = entry?.fullUrl ?? entry?.response?.location;
      const id = entry?.resource ? resourceId(entry.resource) : url ? idFromLocation(url) : undefined;
      if (id) ids.push(id);
    }
    return;
  }
  if (resource.resourceType === 'Bundle') return;
  const id = resourceId(resource);
  if (id) ids.push(id);
}

function resourceId(resource: Loose): string | undefined {
  if (typeof resource.resourceType !== 'string' || typeof resource.id !== 'string') return undefined;
  if (resource.resourceType === 'OperationOutcome') return undefined;
  return `${resource.resourceType}/${resource.id}`;
}

/** `.../Patient/123/_history/2` or `Patient/123` -> `Patient/123`. */
export function idFromLocation(location: string): string | undefined {
  const match = /(?:^|\/)([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[^/]+)?\/?$/.exec(location.split('?')[0]);
  return match ? `${match[1]}/${match[2]}` : undefined;
}
