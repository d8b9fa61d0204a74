// The plain request/response values every interaction works on, independent of the HTTP framework:
// tests and transaction Bundles call interactions with these directly.
import type { Resource } from '@medplum/fhirtypes';
import type { Repository } from '../resources/storage/repository.ts';
import type { Store } from '../resources/storage/store.ts';
import type { SearchService } from '../resources/search/service.ts';
import type { TerminologyService } from '../resources/terminology/service.ts';
import type { ServerSettings } from './context.ts';
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
  /** A JSON body's text as sent (for decimal precision the parsed `body` loses: `1.0`). */
  jsonText?: string;
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
  /** `Type/id` of the resource a JSON-text body holds (server/http/returned-ids.ts reads object bodies itself). */
  resourceIds?: string[];
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

/** A request target split at its first `?` (a query value may hold more: `code:in=urn:x?fhir_vs`). */
export function splitTarget(url: string): [path: string, query: string] {
  const at = url.indexOf('?');
  return at < 0 ? [url, ''] : [url.slice(0, at), url.slice(at + 1)];
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

/** Server-wide services every interaction may use, built once in app.ts and passed in with each request. */
export interface ServerContext {
  store: Store;
  settings: ServerSettings;
  search: SearchService;
  /** The code systems, value sets and concept maps the terminology operations answer from (the search engine holds the same). */
  terminology: TerminologyService;
  operations: OperationTable;
}

// Named operations as data (server/operations/registry.ts holds the table).
export type OperationLevel = 'system' | 'type' | 'instance';

export interface OperationTarget {
  type?: string;
  id?: string;
}

export interface Operation {
  /** Without the `$`. */
  name: string;
  levels: OperationLevel[];
  /** Resource types the operation applies to at type and instance level; undefined = any. */
  types?: string[];
  /** False when the operation changes state (then only POST may invoke it). */
  readOnly: boolean;
  /** A read-only operation that still takes only POST (its input, e.g. a SQL query, belongs in a body). */
  postOnly?: boolean;
  /**
   * False when the operation cannot be a batch/transaction entry because its answer is not a resource available
   * now (rows, a stream, or a reply from another process); such entries fail before the handler does any work.
   */
  bundleEntry?: boolean;
  documentation?: string;
  handler(req: FhirRequest, target: OperationTarget): FhirResponse;
}

/** Finds an operation by name and level (server/operations/registry.ts). */
export interface OperationTable {
  find(name: string, level: OperationLevel, type?: string): Operation | undefined;
  all(): Operation[];
}
