// history: GET [base]/_history, [base]/[type]/_history, [base]/[type]/[id]/_history (FHIR R4 3.1.0.10).
import type { Bundle, BundleEntry } from '@medplum/fhirtypes';
import type { FhirRequest, FhirResponse } from '../fhir-request.ts';
import { queryValue } from '../fhir-request.ts';
import { invalidParameter, notFound } from '../../resources/outcome.ts';
import { assertKnownType } from './write-checks.ts';
import { pageLinks, pageWindow } from './bundle.ts';
import { etag } from './respond.ts';

export function history(req: FhirRequest, type?: string, id?: string): FhirResponse {
  if (type) assertKnownType(type);
  if (type && id && !req.repo.current(type, id)) throw notFound(`${type}/${id} is not known`);
  const { count, offset } = pageWindow(req.query, req.context.settings.defaultPageSize, req.context.settings.maxPageSize);
  const since = instantParam(req, '_since');
  const at = instantParam(req, '_at');
  const page = req.repo.history({ type, id, since, before: at, count, offset });
  const entry: BundleEntry[] = page.versions.map((v) => {
    const url = `${v.type}/${v.id}`;
    return {
      fullUrl: `${req.baseUrl}/${url}`,
      ...(v.json ? { resource: JSON.parse(v.json) } : {}),
      request: { method: v.deleted ? 'DELETE' : v.version === 1 ? 'POST' : 'PUT', url: v.version === 1 && !v.deleted ? v.type : url },
      response: { status: v.deleted ? '204' : v.version === 1 ? '201' : '200', etag: etag(v.version), lastModified: v.lastUpdated },
    };
  });
  const path = [type, id, '_history'].filter(Boolean).join('/');
  const bundle: Bundle = {
    resourceType: 'Bundle',
    type: 'history',
    timestamp: req.repo.now.toISOString(),
    total: page.total,
    link: pageLinks(`${req.baseUrl}/${path}`, req.query, count, offset, page.total, entry.length),
    entry,
  };
  return { status: 200, body: bundle };
}

/** An instant-valued parameter, normalized to UTC ISO text for comparison with stored times. */
function instantParam(req: FhirRequest, name: string): string | undefined {
  const raw = queryValue(req.query, name);
  if (raw === undefined) return undefined;
  // A '+' in an unencoded time zone offset arrives as a space.
  const value = raw.replace(' ', '+');
  if (!/^\d{4}(-\d{2}(-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/.test(value) || Number.isNaN(Date.parse(value))) {
    throw invalidParameter(`${name} must be an instant such as 2024-01-01T00:00:00Z, not '${raw}'`, [name]);
  }
  return new Date(value).toISOString();
}
