// Paging of searchset and history Bundles (FHIR R4 3.1.0.8.3): `_count`/`_offset` and the page links. Below the
// server: the search engine pages its own Bundles; the history interaction uses the same functions.
import { integerParameter } from '../integer-parameter.ts';
import type { BundleLink } from '@medplum/fhirtypes';

/** Query parameters in order, repeats kept (the shape of FhirRequest.query). */
type QueryParams = [name: string, value: string][];

/** `_count` and `_offset` from a query, checked and clamped to the server's page size limits. */
export function pageWindow(query: QueryParams, defaultCount: number, maxCount: number): { count: number; offset: number } {
  return {
    count: Math.min(nonNegativeInteger(query, '_count') ?? defaultCount, maxCount),
    offset: nonNegativeInteger(query, '_offset') ?? 0,
  };
}

function nonNegativeInteger(query: QueryParams, name: string): number | undefined {
  return integerParameter(name, query.find(([n]) => n === name)?.[1], { min: 0 });
}

/**
 * Absolute self/first/previous/next links that carry all paging state as query parameters, so a client that
 * re-sends only a link's query (Medplum's client does) gets the right page.
 */
export function pageLinks(url: string, query: QueryParams, count: number, offset: number, total: number | undefined, pageSize: number): BundleLink[] {
  const keep = query.filter(([name]) => name !== '_count' && name !== '_offset');
  const at = (o: number) => {
    const params = new URLSearchParams(keep);
    params.set('_count', String(count));
    params.set('_offset', String(o));
    return `${url}?${params.toString()}`;
  };
  const links: BundleLink[] = [{ relation: 'self', url: at(offset) }, { relation: 'first', url: at(0) }];
  if (offset > 0) links.push({ relation: 'previous', url: at(Math.max(0, offset - count)) });
  const hasMore = total !== undefined ? offset + pageSize < total : pageSize === count && count > 0;
  if (hasMore && count > 0) links.push({ relation: 'next', url: at(offset + count) });
  if (total !== undefined && count > 0) links.push({ relation: 'last', url: at(Math.max(0, Math.floor((total - 1) / count) * count)) });
  return links;
}
