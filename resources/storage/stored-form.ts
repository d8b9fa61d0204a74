// The form a resource is stored in: resourceType, id and meta first (as FHIR servers conventionally serialize them),
// with the server's meta.versionId and meta.lastUpdated. One function for the write path and the bulk path, so both
// store byte-identical JSON.
import type { Resource } from '@medplum/fhirtypes';

export function storedForm(resource: Resource & { id: string }, version: number, lastUpdated: string): Resource & { id: string } {
  const { resourceType, id, meta, ...rest } = resource;
  return { resourceType, id, meta: { ...meta, versionId: String(version), lastUpdated }, ...rest } as Resource & { id: string };
}
