// The plain request/response values every interaction works on, independent of the HTTP framework:
// tests and transaction Bundles call interactions with these directly.
import type { Resource } from '@medplum/fhirtypes';
import type { Repository } from '../resources/storage/repository.ts';
import type { ServerContext } from './context.ts';
import type { Deadline } from '../resources/deadline.ts';

/** Query parameters in order, repeats kept (a repeated search parameter means AND). */
export type QueryParams = [name: string, value: string][];

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface FhirRequest {
  method: HttpMethod;
  /** Path below the FHIR base, without leading slash, e.g. `Patient/1/_history/2`. */
  path: string;
  query: QueryParams;
  body?: unknown;
  /** The media type of the body, lower-case, without parameters. */
  contentType?: string;
  /** Lower-case header names. */
  headers: Record<string, string | undefined>;
  /** Absolute base URL of this FHIR endpoint, without a trailing slash. */
  baseUrl: string;
  repo: Repository;
  context: ServerContext;
  /** Present while the request is an entry of a transaction Bundle. */
  transaction?: TransactionEntryState;
  /** True while the request is an entry of a batch or transaction Bundle. */
  bundleEntry?: boolean;
  /** The request's time budget (server/request-deadline.ts starts it; batch entries share their Bundle's). */
  deadline?: Deadline;
}

export interface FhirResponse {
  status: number;
  /** A resource, or the JSON text of one (stored versions are sent as stored). */
  body?: Resource | string;
  headers?: Record<string, string>;
  /**
   * The response of an operation that finishes off the main thread (e.g. $sqlquery-run in a child process): the HTTP
   * layer awaits it. Not available inside batch/transaction entries.
   */
  deferred?: Promise<FhirResponse>;
  /**
   * A body produced while the client reads it (e.g. $run over stored data), sent with `headers['content-type']`
   * instead of `body`. Its producer must not hold a database cursor open between chunks. Not available inside
   * batch/transaction entries.
   */
  stream?: AsyncIterable<string>;
}

export function queryValue(query: QueryParams, name: string): string | undefined {
  return query.find(([n]) => n === name)?.[1];
}

export function parseQueryString(search: string): QueryParams {
  const out: QueryParams = [];
  for (const [name, value] of new URLSearchParams(search)) out.push([name, value]);
  return out;
}

/** `Prefer: return=minimal|representation|OperationOutcome` (FHIR R4 3.1.0.8.2). */
export function preferredReturn(req: FhirRequest): 'minimal' | 'representation' | 'OperationOutcome' {
  const match = /return=(minimal|representation|OperationOutcome)/i.exec(req.headers['prefer'] ?? '');
  if (!match) return 'representation';
  const value = match[1].toLowerCase();
  return value === 'minimal' ? 'minimal' : value === 'operationoutcome' ? 'OperationOutcome' : 'representation';
}

export function prefersStrictHandling(req: FhirRequest): boolean {
  return /handling=strict/i.test(req.headers['prefer'] ?? '');
}

/** Set only on entries of a transaction Bundle. */
export interface TransactionEntryState {
  /** Server id assigned ahead of time for a POST whose fullUrl is a urn:uuid. */
  assignedId?: string;
  /** Written resources whose references are checked once every entry is in (entries may point forward). */
  pendingReferenceChecks: import('@medplum/fhirtypes').Resource[];
}
