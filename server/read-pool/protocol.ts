// What crosses between the main thread and a read worker (structured-clone values: no Repository, no context).
// The main thread keeps HTTP, sessions, the audit log and every write; a worker answers one read at a time from its
// own read-only SQLite connection, so a session's committed writes are visible to it (WAL) from the next request on.
import type { FhirRequest, FhirResponse, HttpMethod } from '../fhir-request.ts';
import type { ServerSettings } from '../context.ts';
import { isTabularOperationPath } from '../../contracts/operations.ts';

export interface WorkerSetup {
  dbPath: string;
  settings: ServerSettings;
}

/** A FhirRequest's plain fields, with its sandbox named instead of its Repository and context (a worker has its own). */
export type WireRequest = Pick<FhirRequest, 'method' | 'path' | 'query' | 'body' | 'jsonText' | 'contentType' | 'headers' | 'baseUrl'> & {
  /** The sandbox the request reads: its layers and the instant its clock gave this request on the main thread. */
  sandbox: { name: string; layers: readonly string[]; now: string };
};

/** An answer as sent: the body already JSON text, the returned resource ids already read from it. */
export interface WireResponse {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  resourceIds: string[];
}

export type ToWorker = { id: number; request: WireRequest };
export type FromWorker = { ready: true } | { id: number; response: WireResponse };

export function toWire(req: FhirRequest): WireRequest {
  const { sandbox } = req.repo;
  return {
    method: req.method, path: req.path, query: req.query, body: req.body, headers: req.headers, baseUrl: req.baseUrl,
    ...(req.jsonText !== undefined ? { jsonText: req.jsonText } : {}),
    ...(req.contentType !== undefined ? { contentType: req.contentType } : {}),
    // One reading of the sandbox's clock per request, taken here so a virtual clock stays the main thread's alone.
    sandbox: { name: sandbox.name, layers: sandbox.layers, now: req.repo.now.toISOString() },
  };
}

export function fromWire(response: WireResponse): FhirResponse {
  return {
    status: response.status,
    ...(response.headers ? { headers: response.headers } : {}),
    ...(response.body !== undefined ? { body: response.body } : {}),
    resourceIds: response.resourceIds,
  };
}

/**
 * Whether a request may be answered by a read worker: it writes nothing (server/write-kind.ts decided), its answer is
 * a whole body (the tabular operations stream rows or run in a child process of their own), and it is not a point
 * read (`Type/id`, `Type/id/_history/v`, `metadata`): one row by primary key costs less than the message round trip,
 * and keeping it here means a read by id never waits behind a heavy search queued in the pool.
 */
export function runsOffThread(method: HttpMethod, path: string, write: boolean): boolean {
  if (write || isTabularOperationPath(path)) return false;
  if (method !== 'GET' && method !== 'HEAD') return true;
  const segments = path.split('/').filter((s) => s.length > 0);
  if (segments.length === 1) return segments[0] !== 'metadata';
  if (segments.length === 2) return segments[1].startsWith('$') || segments[1] === '_history';
  if (segments.length === 4) return segments[2] !== '_history';
  return true;
}
