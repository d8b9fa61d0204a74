// search: GET [base]/[type]?, POST [base]/[type]/_search, GET [base]?_type= (FHIR R4 3.1.0.9 and 3.1.1 Search),
// and compartment search GET [base]/Patient/[id]/[type]? (FHIR R4 3.1.1.3.1 "Compartments").
import type { FhirRequest, FhirResponse, QueryParams } from '../fhir-request.ts';
import { prefersStrictHandling } from '../fhir-request.ts';
import { assertKnownType } from './write-checks.ts';
import { badRequest, notFound } from '../../resources/outcome.ts';
import { deadlineOf } from '../request-deadline.ts';

export function search(req: FhirRequest, type: string | undefined, path: string, extra: QueryParams = []): FhirResponse {
  if (type) assertKnownType(type);
  // A POST _search may carry parameters in the URL and in the form body; both count.
  const deadline = deadlineOf(req);
  const query = [...req.query, ...formParams(req), ...extra];
  const bundle = req.context.search.search(
    { repo: req.repo, baseUrl: req.baseUrl, strict: prefersStrictHandling(req), path, limits: req.context.settings, deadline },
    type,
    query,
  );
  return { status: 200, body: bundle };
}

/** Compartment search: the compartment's owner must exist; the engine adds the compartment criterion. */
export function compartmentSearch(req: FhirRequest, compartmentType: string, id: string, type: string): FhirResponse {
  assertKnownType(compartmentType);
  assertKnownType(type);
  if (!req.repo.exists(compartmentType, id)) throw notFound(`${compartmentType}/${id} is not known`);
  return search(req, type, `${compartmentType}/${id}/${type}`, [['_compartment', `${compartmentType}/${id}`]]);
}

function formParams(req: FhirRequest): QueryParams {
  if (req.method !== 'POST' || req.body === undefined) return [];
  if (req.contentType !== 'application/x-www-form-urlencoded') {
    throw badRequest('POST _search takes its parameters as application/x-www-form-urlencoded');
  }
  return req.body as QueryParams;
}
