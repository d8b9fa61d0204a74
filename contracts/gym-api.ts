// The gym API's record types, as its HTTP routes return them (`GET /gym/sessions/{id}/log` and `/changes`): written by
// the server (server/gym/audit-log.ts, changes.ts), read by graders and the runner over HTTP.
import type { Resource } from '@medplum/fhirtypes';

/** One request of a session's audit log. */
export interface AuditEntry {
  /** Position in the log; increases with every request (across sessions). */
  seq: number;
  /** The session clock's time when the response was sent. */
  time: string;
  method: string;
  /** Path below the FHIR base, e.g. `Patient/123`. */
  path: string;
  /** Query parameters in order, repeats kept. */
  query: [string, string][];
  status: number;
  /** Whether the request was a write: decided once, by the server (server/write-kind.ts), before it ran. */
  write: boolean;
  /** The request body (parsed JSON), when there was one and it fit the log's body limit. */
  requestBody?: unknown;
  /**
   * A body over the log's limit (server/gym/audit-log.ts, AuditLimits): its size in bytes and the first bytes of its
   * JSON, which are no longer JSON, so no reader mistakes a cut body for the one sent.
   */
  requestBodyTruncated?: { bytes: number; prefix: string };
  /** `Type/id` of every resource the response returned (a resource, Bundle entries, or a Location). */
  resourceIds: string[];
  latencyMs: number;
  /** The gym tool that made the request, when it came through the tool executor or MCP. */
  tool?: string;
  /**
   * Only on the log's own marker entry (method `NOTE`, status 0, no path): the session's log reached its size limit
   * and the requests after it are not recorded.
   */
  note?: string;
}

export type ChangeAction = 'created' | 'updated' | 'deleted' | 'created-then-deleted';

export interface ResourceChange {
  type: string;
  id: string;
  action: ChangeAction;
  /** The version visible when the episode began (null: the resource did not exist or was deleted). */
  before: Resource | null;
  /** The version visible now (null: deleted). */
  after: Resource | null;
  /** Every version the session wrote, oldest first. */
  versions: { version: number; lastUpdated: string; deleted: boolean }[];
}
