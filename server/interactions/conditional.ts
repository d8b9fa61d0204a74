// The search half of conditional create, update, delete and patch (FHIR R4 3.1.0.4.1, 3.1.0.5.2, 3.1.0.7.1).
import type { FhirRequest } from '../fhir-request.ts';
import { parseQueryString } from '../fhir-request.ts';
import { badRequest, multipleMatches } from '../../resources/outcome.ts';

/** Ids of `type` matching the criteria; criteria may be `a=b&c=d`, `?a=b` or `Type?a=b`. */
export function matchCriteria(req: FhirRequest, type: string, criteria: string | [string, string][]): string[] {
  const query = typeof criteria === 'string' ? parseQueryString(criteria.slice(criteria.indexOf('?') + 1)) : criteria;
  const meaningful = query.filter(([name]) => !name.startsWith('_format') && name !== '_pretty');
  if (meaningful.length === 0) throw badRequest(`A conditional ${req.method} on ${type} needs search criteria`);
  return req.context.search.match(req.repo, type, meaningful);
}

/** At most one match, or 412 (the criteria were not selective enough). */
export function singleMatch(req: FhirRequest, type: string, criteria: string | [string, string][]): string | undefined {
  const ids = matchCriteria(req, type, criteria);
  if (ids.length > 1) throw multipleMatches(`${ids.length} ${type} resources match the condition; it must match at most one`);
  return ids[0];
}
