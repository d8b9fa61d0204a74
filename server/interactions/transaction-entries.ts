// The entries of a batch or transaction Bundle as child requests for the router, and their replies as response
// entries (FHIR R4 3.1.0.11 "Batch/Transaction", 2.36 Bundle.entry.request / Bundle.entry.response).
import { STATUS_CODES } from 'node:http';
import type { Bundle, BundleEntry, BundleEntryResponse, Resource } from '@medplum/fhirtypes';
import type { FhirRequest, FhirResponse, HttpMethod, QueryParams, TransactionEntryState } from '../fhir-request.ts';
import { parseQueryString } from '../fhir-request.ts';
import { badRequest, FhirError, issue } from '../../resources/outcome.ts';

/** One Bundle entry, parsed into what a child request needs. */
export interface ParsedEntry {
  /** Position in the request Bundle: response entries keep this order, failures name it. */
  index: number;
  method: HttpMethod;
  /** `entry.request.url` as sent, for messages. */
  url: string;
  /** Path below the base, without leading slash, segments still percent-encoded. */
  path: string;
  query: QueryParams;
  fullUrl?: string;
  /** A copy of `entry.resource` (references get rewritten in it), or the JSON Patch operations of a PATCH. */
  body?: unknown;
  contentType?: string;
  headers: Record<string, string | undefined>;
}

const METHODS = new Set<HttpMethod>(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH']);

/** Parse entry `index`; throws a 400 FhirError for an entry that cannot be sent (bdl-3: request is required). */
export function parseEntry(req: FhirRequest, entry: BundleEntry, index: number): ParsedEntry {
  // The schema's BundleEntry has no "type": "object", so null, numbers and strings reach here.
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw badRequest(`Bundle.entry[${index}] is not an object`, [`Bundle.entry[${index}]`]);
  const request = entry.request;
  if (!request) throw badRequest('A batch or transaction entry needs a request (method and url)', ['request']);
  const method = request.method as HttpMethod;
  if (!METHODS.has(method)) throw badRequest(`Unknown request method '${String(request.method)}'`, ['request.method']);
  const { path, query } = splitEntryUrl(request.url, req.baseUrl);
  // A POST to the base itself would run a nested batch; a Bundle resource is created with POST Bundle instead.
  if (path === '' && method === 'POST') throw badRequest('An entry may not itself be a batch or transaction (POST to the base)', ['request.url']);

  const headers: Record<string, string | undefined> = { prefer: req.headers['prefer'] };
  if (request.ifNoneExist) headers['if-none-exist'] = request.ifNoneExist;
  if (request.ifMatch) headers['if-match'] = request.ifMatch;
  if (request.ifNoneMatch) headers['if-none-match'] = request.ifNoneMatch;
  if (request.ifModifiedSince) headers['if-modified-since'] = request.ifModifiedSince;

  const parsed: ParsedEntry = { index, method, url: request.url, path, query, fullUrl: entry.fullUrl, headers };
  if (entry.resource !== undefined && (method === 'POST' || method === 'PUT' || method === 'PATCH')) {
    const patchOperations = method === 'PATCH' ? jsonPatchFromBinary(entry.resource) : undefined;
    if (patchOperations !== undefined) {
      parsed.body = patchOperations;
      parsed.contentType = 'application/json-patch+json';
    } else {
      parsed.body = structuredClone(entry.resource);
      parsed.contentType = 'application/fhir+json';
    }
  }
  return parsed;
}

/** `entry.request.url` is relative to the base, or absolute under it (3.1.0.11.1). */
export function splitEntryUrl(url: string | undefined, baseUrl: string): { path: string; query: QueryParams } {
  if (typeof url !== 'string' || url.trim() === '') throw badRequest('An entry request needs a url', ['request.url']);
  let rel = url.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(rel)) {
    if (rel !== baseUrl && !rel.startsWith(baseUrl + '/') && !rel.startsWith(baseUrl + '?')) {
      throw badRequest(`The entry url '${url}' is not on this server (${baseUrl})`, ['request.url']);
    }
    rel = rel.slice(baseUrl.length);
  }
  rel = rel.replace(/^\/+/, '');
  const mark = rel.indexOf('?');
  const path = mark < 0 ? rel : rel.slice(0, mark);
  for (const segment of path.split('/')) {
    try {
      decodeURIComponent(segment);
    } catch {
      throw badRequest(`The entry url '${url}' has a malformed percent-encoding`, ['request.url']);
    }
  }
  return { path: path.replace(/\/+$/, ''), query: mark < 0 ? [] : parseQueryString(rel.slice(mark + 1)) };
}

/**
 * A PATCH entry carries its JSON Patch as a Binary whose data is the base64 patch document (3.1.0.11.1, 3.1.0.6).
 * Undefined when the resource is not such a Binary (then it is sent as is, e.g. a FHIRPath Patch Parameters).
 */
function jsonPatchFromBinary(resource: Resource): unknown {
  if (resource.resourceType !== 'Binary') return undefined;
  const contentType = (resource.contentType ?? '').split(';')[0].trim().toLowerCase();
  if (contentType !== 'application/json-patch+json' && contentType !== 'application/json') {
    throw badRequest(`A PATCH entry's Binary must hold application/json-patch+json, not '${resource.contentType ?? 'nothing'}'`, ['resource.contentType']);
  }
  try {
    return JSON.parse(Buffer.from(resource.data ?? '', 'base64').toString('utf8'));
  } catch {
    throw badRequest("A PATCH entry's Binary.data is not base64-encoded JSON", ['resource.data']);
  }
}

/** The request an entry becomes: same base, sandbox and server, the entry's method, url, headers and body. */
export function childRequest(req: FhirRequest, entry: ParsedEntry, transaction?: TransactionEntryState): FhirRequest {
  return {
    method: entry.method,
    path: entry.path,
    query: entry.query,
    body: entry.body,
    contentType: entry.contentType,
    headers: entry.headers,
    baseUrl: req.baseUrl,
    repo: req.repo,
    context: req.context,
    transaction,
  };
}

export function statusLine(status: number): string {
  const reason = STATUS_CODES[status];
  return reason ? `${status} ${reason}` : String(status);
}

/** Bundle.entry.response for one interaction's reply; the body goes to `resource`, or to `outcome` when it reports. */
export function responseEntry(req: FhirRequest, entry: ParsedEntry, reply: FhirResponse): BundleEntry {
  const response: BundleEntryResponse = { status: statusLine(reply.status) };
  const headers = reply.headers ?? {};
  const body = typeof reply.body === 'string' ? (JSON.parse(reply.body) as Resource) : reply.body;
  if (headers.location) response.location = headers.location;
  if (headers.etag) response.etag = headers.etag;
  const lastModified = body?.meta?.lastUpdated ?? httpDateToInstant(headers['last-modified']);
  if (lastModified) response.lastModified = lastModified;

  const out: BundleEntry = {};
  const fullUrl = headers.location?.replace(/\/_history\/[^/]+$/, '');
  if (fullUrl) out.fullUrl = fullUrl;
  const isRead = entry.method === 'GET' || entry.method === 'HEAD';
  if (body && entry.method !== 'HEAD') {
    if (body.resourceType === 'OperationOutcome' && !isRead) response.outcome = body;
    else out.resource = body;
  }
  if (!out.fullUrl && isRead && body?.id && body.resourceType !== 'Bundle') out.fullUrl = `${req.baseUrl}/${body.resourceType}/${body.id}`;
  out.response = response;
  return out;
}

/** A failed entry of a batch: its status and OperationOutcome. */
export function failureEntry(error: FhirError): BundleEntry {
  return { response: { status: statusLine(error.status), outcome: error.outcome } };
}

function httpDateToInstant(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** Non-FhirErrors are server faults; they still become an OperationOutcome rather than escaping a batch. */
export function asFhirError(err: unknown): FhirError {
  if (err instanceof FhirError) return err;
  return new FhirError(500, [issue('fatal', 'exception', `Internal error: ${(err as Error)?.message ?? String(err)}`)]);
}

/**
 * The error of one entry, re-labelled so the client can tell which entry failed: diagnostics prefixed with
 * `Bundle.entry[i]`, expressions re-rooted from the entry's resource to `Bundle.entry[i].resource`.
 */
export function entryError(entry: ParsedEntry, err: unknown): FhirError {
  const error = asFhirError(err);
  const label = `Bundle.entry[${entry.index}]`;
  const type = (entry.body as Resource | undefined)?.resourceType;
  const reroot = (expr: string) => {
    if (type && (expr === type || expr.startsWith(type + '.') || expr.startsWith(type + '['))) return `${label}.resource${expr.slice(type.length)}`;
    return expr;
  };
  const issues = (error.outcome.issue ?? []).map((i) => ({
    ...i,
    diagnostics: `${label} (${entry.method} ${entry.url}): ${i.diagnostics ?? ''}`.trimEnd(),
    ...(i.expression ? { expression: i.expression.map(reroot) } : {}),
  }));
  return new FhirError(error.status, issues);
}

export function responseBundle(req: FhirRequest, type: 'batch-response' | 'transaction-response', entry: BundleEntry[]): Bundle {
  return { resourceType: 'Bundle', type, timestamp: req.repo.now.toISOString(), entry };
}
