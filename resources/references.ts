// Finding and rewriting the references inside a resource (FHIR R4 2.3.0 "Resource References").
import type { Resource } from '@medplum/fhirtypes';

export interface ReferenceSite {
  /** The object holding the `reference` property. */
  holder: { reference?: string };
  reference: string;
}

/** Every `reference` string in the resource, contained resources included. */
export function collectReferences(value: unknown, out: ReferenceSite[] = []): ReferenceSite[] {
  if (Array.isArray(value)) {
    for (const item of value) collectReferences(item, out);
  } else if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    if (typeof obj.reference === 'string') out.push({ holder: obj as { reference?: string }, reference: obj.reference });
    for (const key in obj) {
      const child = obj[key];
      if (child && typeof child === 'object') collectReferences(child, out);
    }
  }
  return out;
}

const RELATIVE = /^([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[A-Za-z0-9\-.]{1,64})?$/;

/**
 * The local target of a reference, if it points at this server: `Type/id`, `Type/id/_history/n`, or an absolute URL
 * under `baseUrl`. Contained (`#x`), urn: and foreign absolute references have no local target.
 */
export function localTarget(reference: string, baseUrl: string): { type: string; id: string } | undefined {
  let rel = reference;
  if (/^https?:\/\//.test(reference)) {
    if (!reference.startsWith(baseUrl + '/')) return undefined;
    rel = reference.slice(baseUrl.length + 1);
  }
  const match = RELATIVE.exec(rel);
  return match ? { type: match[1], id: match[2] } : undefined;
}

export function resourceReferences(resource: Resource): ReferenceSite[] {
  return collectReferences(resource);
}
