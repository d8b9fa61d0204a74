// References between the entries of a transaction and conditional references (FHIR R4 3.1.0.11.2 "Transaction
// Processing Rules", 3.1.0.11.3 "Conditional References").
import type { Resource } from '@medplum/fhirtypes';
import type { FhirRequest } from '../fhir-request.ts';
import { badRequest, FhirError, issue, multipleMatches } from '../../resources/outcome.ts';
import type { ParsedEntry } from './transaction-entries.ts';
import { matchCriteria } from './conditional.ts';
import { assertKnownType } from './write-checks.ts';

/** `urn:uuid:` and `urn:oid:` references name another entry of the same Bundle by its fullUrl. */
export function isPlaceholder(reference: string): boolean {
  return /^urn:(uuid|oid):/i.test(reference);
}

/** `Patient?identifier=sys|123`: a reference given as search criteria, resolved to the one resource matching. */
export function conditionalReference(reference: string): { type: string; criteria: string } | undefined {
  const match = /^([A-Z][A-Za-z]+)\?(.+)$/.exec(reference);
  return match ? { type: match[1], criteria: match[2] } : undefined;
}

/** What a reference becomes, or undefined to leave it as is; throws when it cannot be resolved. */
export type ReferenceResolver = (reference: string) => string | undefined;

/**
 * Rewrite every reference in an entry: `Reference.reference` throughout its resource (a nested Bundle's entries are
 * left alone: that Bundle is a stored document, not part of this one), the values of a JSON Patch, and the entry
 * url's query values (`Observation?subject=urn:uuid:...`).
 */
export function rewriteEntryReferences(entry: ParsedEntry, resolve: ReferenceResolver): void {
  entry.query = entry.query.map(([name, value]) => [name, resolve(value) ?? value]);
  if (entry.body === undefined) return;
  if (entry.contentType === 'application/json-patch+json') {
    if (!Array.isArray(entry.body)) return;
    for (const op of entry.body as { value?: unknown }[]) {
      if (!op || typeof op !== 'object') continue;
      if (typeof op.value === 'string') op.value = resolve(op.value) ?? op.value;
      else visitReferences(op.value, resolve);
    }
    return;
  }
  visitReferences(entry.body, resolve);
}

function visitReferences(value: unknown, resolve: ReferenceResolver): void {
  if (Array.isArray(value)) {
    for (const item of value) visitReferences(item, resolve);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const obj = value as Record<string, unknown>;
  if (typeof obj.reference === 'string') {
    const replacement = resolve(obj.reference);
    if (replacement !== undefined) obj.reference = replacement;
  }
  const isBundle = obj.resourceType === 'Bundle';
  for (const key in obj) {
    if (isBundle && key === 'entry') continue;
    const child = obj[key];
    if (child && typeof child === 'object') visitReferences(child, resolve);
  }
}

/**
 * Resolve conditional references, caching each criteria string (one search per distinct reference). No match or
 * several is a failure (3.1.0.11.3): 412, like a conditional update that cannot pick one resource.
 */
export function conditionalReferenceResolver(req: FhirRequest): ReferenceResolver {
  const cache = new Map<string, string>();
  return (reference) => {
    const conditional = conditionalReference(reference);
    if (!conditional) return undefined;
    const cached = cache.get(reference);
    if (cached) return cached;
    assertKnownType(conditional.type);
    const ids = matchCriteria(req, conditional.type, conditional.criteria);
    if (ids.length === 0) {
      throw new FhirError(412, [issue('error', 'not-found', `Conditional reference '${reference}' matches no resource`)]);
    }
    if (ids.length > 1) throw multipleMatches(`Conditional reference '${reference}' matches ${ids.length} resources; it must match exactly one`);
    const resolved = `${conditional.type}/${ids[0]}`;
    cache.set(reference, resolved);
    return resolved;
  };
}

/** A transaction: fullUrls of entries map to the identities the server gave them; other urn: references fail. */
export function transactionResolver(identities: Map<string, string>, conditional: ReferenceResolver): ReferenceResolver {
  return (reference) => {
    const identity = identities.get(reference);
    if (identity) return identity;
    if (isPlaceholder(reference)) throw badRequest(`Reference '${reference}' is not the fullUrl of any entry in this transaction`);
    return conditional(reference);
  };
}

/** A batch: entries are independent (3.1.0.11.2), so a reference to another entry's urn: fullUrl fails that entry. */
export function batchResolver(conditional: ReferenceResolver): ReferenceResolver {
  return (reference) => {
    if (isPlaceholder(reference)) {
      throw badRequest(`Reference '${reference}': entries of a batch cannot reference each other by urn; use a transaction`);
    }
    return conditional(reference);
  };
}

/** The type of the resource an entry writes, from its url (`Patient`, `Patient/1`, `Patient?x=y`). */
export function entryType(entry: ParsedEntry): string {
  return decodeURIComponent(entry.path.split('/')[0] ?? '');
}

export function entryResource(entry: ParsedEntry): Resource | undefined {
  const body = entry.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Resource) : undefined;
}
