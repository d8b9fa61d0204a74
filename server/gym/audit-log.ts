// The audit log: one row per request made under a sandbox's FHIR base, in the same SQLite file as the data,
// so graders read what the agent did (never a transcript).
import type Database from 'better-sqlite3';
import type { Store } from '../../resources/storage/store.ts';
import type { AuditEntry } from '../../contracts/gym-api.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS gym_audit (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  sandbox TEXT NOT NULL, time TEXT NOT NULL, method TEXT NOT NULL, path TEXT NOT NULL, query TEXT NOT NULL,
  status INTEGER NOT NULL, request_body TEXT, resource_ids TEXT NOT NULL, latency_ms REAL NOT NULL, tool TEXT,
  write INTEGER, request_body_bytes INTEGER, note TEXT
);
CREATE INDEX IF NOT EXISTS gym_audit_sandbox ON gym_audit (sandbox, seq);
`;

export type NewAuditEntry = Omit<AuditEntry, 'seq'>;

/** What one session's log may hold (server/gym/README.md, "Fair use"). */
export interface AuditLimits {
  /** The most of a request body's JSON kept for a request that succeeded (status < 400). */
  bodyBytes: number;
  /** The most kept of a rejected request's body (status >= 400): enough to see what was sent, not a 10 MB copy. */
  rejectedBodyBytes: number;
  /** The most one session's log holds; then one NOTE entry, and later requests are not recorded. */
  maxBytesPerSession: number;
}

export const defaultAuditLimits: AuditLimits = {
  bodyBytes: 64 * 1024,
  rejectedBodyBytes: 4 * 1024,
  maxBytesPerSession: 16 * 1024 * 1024,
};

/** Bytes a row costs besides its text columns (seq, time, status, latency, the index entry), roughly. */
const ROW_OVERHEAD = 96;

type AuditRow = {
  seq: number; time: string; method: string; path: string; query: string; status: number;
  request_body: string | null; resource_ids: string; latency_ms: number; tool: string | null; write: number;
  request_body_bytes: number | null; note: string | null;
};

/** A session's log size so far and whether it is full (loaded from the table the first time a session records). */
interface Usage {
  bytes: number;
  full: boolean;
}

export class AuditLog {
  private readonly stmts;
  /** Entries not yet written: one SQLite commit per request would cost more than the request itself. */
  private pending: [string, NewAuditEntry][] = [];
  private flushScheduled = false;
  private readonly writePending: () => void;
  private readonly usage = new Map<string, Usage>();
  readonly limits: AuditLimits;

  constructor(private readonly db: Database.Database, limits: Partial<AuditLimits> = {}) {
    this.limits = { ...defaultAuditLimits, ...limits };
    db.exec(SCHEMA);
    // Logs written before a column existed get it; their rows keep NULL for the body columns (no cut, no note).
    const columns = new Set((db.prepare('PRAGMA table_info(gym_audit)').all() as { name: string }[]).map((c) => c.name));
    for (const column of ['write', 'request_body_bytes', 'note']) {
      if (!columns.has(column)) db.exec(`ALTER TABLE gym_audit ADD COLUMN ${column} ${column === 'note' ? 'TEXT' : 'INTEGER'}`);
    }
    // Rows recorded before the server decided writes (server/write-kind.ts) get the only judgement their log allows,
    // once, when the column arrives (the server has set it on every row since): every reader takes the flag as stored.
    if (!columns.has('write')) db.exec("UPDATE gym_audit SET write = (method NOT IN ('GET', 'HEAD', 'NOTE')) WHERE write IS NULL");
    this.stmts = {
      insert: db.prepare(
        `INSERT INTO gym_audit (sandbox, time, method, path, query, status, request_body, resource_ids, latency_ms, tool, write, request_body_bytes, note)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      usage: db.prepare<[string], { bytes: number; notes: number }>(
        `SELECT coalesce(sum(${ROW_OVERHEAD} + length(CAST(path AS BLOB)) + length(CAST(query AS BLOB))
           + coalesce(length(CAST(request_body AS BLOB)), 0) + length(CAST(resource_ids AS BLOB))), 0) AS bytes,
           count(note) AS notes
         FROM gym_audit WHERE sandbox = ?`),
      list: db.prepare<[string, number, number], AuditRow>(
        'SELECT * FROM gym_audit WHERE sandbox = ? AND seq > ? ORDER BY seq LIMIT ?'),
      count: db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM gym_audit WHERE sandbox = ? AND note IS NULL'),
      writes: db.prepare<[string], { n: number }>(
        'SELECT count(*) AS n FROM gym_audit WHERE sandbox = ? AND write = 1'),
      clear: db.prepare('DELETE FROM gym_audit WHERE sandbox = ?'),
      lastSeq: db.prepare<[string], { seq: number | null }>('SELECT max(seq) AS seq FROM gym_audit WHERE sandbox = ?'),
      lastTime: db.prepare<[string], { time: string }>("SELECT time FROM gym_audit WHERE sandbox = ? AND method <> 'NOTE' ORDER BY seq DESC LIMIT 1"),
    };
    this.writePending = db.transaction(() => {
      for (const [sandbox, entry] of this.pending) this.insert(sandbox, entry);
    });
  }

  static forStore(store: Store, limits: Partial<AuditLimits> = {}): AuditLog {
    return new AuditLog(store.db, limits);
  }

  /** Queue an entry; it is written in one transaction with the others of this event-loop turn. */
  record(sandbox: string, entry: NewAuditEntry): void {
    this.pending.push([sandbox, entry]);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flushSafely());
    }
  }

  /** Write queued entries now (every reader calls this first, so nothing recorded is ever missing from a read). */
  flush(): void {
    this.flushScheduled = false;
    if (this.pending.length === 0 || !this.db.open) return;
    try {
      this.writePending();
    } finally {
      this.pending = [];
    }
  }

  private flushSafely(): void {
    try {
      this.flush();
    } catch (err) {
      process.stderr.write(`ehr-gym: audit entries could not be written: ${(err as Error).message}\n`);
    }
  }

  private insert(sandbox: string, entry: NewAuditEntry): void {
    const usage = this.usageOf(sandbox);
    if (usage.full) return;
    const query = new URLSearchParams(entry.query).toString();
    const body = entry.requestBody === undefined ? undefined
      : boundedJson(entry.requestBody, entry.status >= 400 ? this.limits.rejectedBodyBytes : this.limits.bodyBytes);
    const resourceIds = JSON.stringify(entry.resourceIds);
    const bytes = ROW_OVERHEAD + Buffer.byteLength(entry.path) + Buffer.byteLength(query) + (body ? Buffer.byteLength(body.text) : 0)
      + Buffer.byteLength(resourceIds);
    if (usage.bytes + bytes > this.limits.maxBytesPerSession) {
      // Stop rather than drop the oldest entries: a grader needs an episode's beginning, and the marker says where
      // the record ends.
      usage.full = true;
      const note = `The audit log reached its limit of ${this.limits.maxBytesPerSession} bytes; requests from here on are not recorded`;
      this.stmts.insert.run(sandbox, entry.time, 'NOTE', '', '', 0, null, '[]', 0, null, 0, null, note);
      return;
    }
    usage.bytes += bytes;
    this.stmts.insert.run(
      sandbox, entry.time, entry.method, entry.path, query, entry.status, body?.text ?? null,
      resourceIds, entry.latencyMs, entry.tool ?? null, entry.write ? 1 : 0, body?.cutFrom ?? null, null,
    );
  }

  private usageOf(sandbox: string): Usage {
    let usage = this.usage.get(sandbox);
    if (!usage) {
      const row = this.stmts.usage.get(sandbox);
      usage = { bytes: row?.bytes ?? 0, full: (row?.notes ?? 0) > 0 };
      this.usage.set(sandbox, usage);
    }
    return usage;
  }

  /** The seq of the sandbox's newest entry (0 when it has none); seqs are never reused (AUTOINCREMENT). */
  lastSeq(sandbox: string): number {
    this.flush();
    return this.stmts.lastSeq.get(sandbox)?.seq ?? 0;
  }

  /** The session-clock time of the sandbox's newest entry, if any. */
  lastTime(sandbox: string): string | undefined {
    this.flush();
    return this.stmts.lastTime.get(sandbox)?.time;
  }

  /** Entries after `afterSeq`, oldest first. */
  entries(sandbox: string, afterSeq = 0, limit = 10000): AuditEntry[] {
    this.flush();
    return this.stmts.list.all(sandbox, afterSeq, limit).map((row) => {
      const entry: AuditEntry = {
        seq: row.seq, time: row.time, method: row.method, path: row.path,
        query: [...new URLSearchParams(row.query)], status: row.status,
        write: row.write === 1,
        resourceIds: JSON.parse(row.resource_ids) as string[], latencyMs: row.latency_ms,
      };
      if (row.request_body !== null) {
        if (row.request_body_bytes === null) entry.requestBody = JSON.parse(row.request_body);
        else entry.requestBodyTruncated = { bytes: row.request_body_bytes, prefix: row.request_body };
      }
      if (row.tool !== null) entry.tool = row.tool;
      if (row.note !== null) entry.note = row.note;
      return entry;
    });
  }

  counts(sandbox: string): { requests: number; writeRequests: number } {
    this.flush();
    return { requests: this.stmts.count.get(sandbox)?.n ?? 0, writeRequests: this.stmts.writes.get(sandbox)?.n ?? 0 };
  }

  clear(sandbox: string): void {
    this.flush();
    this.stmts.clear.run(sandbox);
    this.usage.delete(sandbox);
  }
}

/**
 * A body's JSON if it fits in `limit` bytes; otherwise its first `limit` bytes (cut at a character boundary) and,
 * in `cutFrom`, the size of the whole.
 */
function boundedJson(body: unknown, limit: number): { text: string; cutFrom?: number } {
  const text = JSON.stringify(body) ?? 'null';
  // Three bytes per UTF-16 unit at most: short bodies skip the byte count.
  if (text.length * 3 <= limit) return { text };
  const bytes = Buffer.byteLength(text);
  if (bytes <= limit) return { text };
  // A character cut in half decodes to U+FFFD at the end: drop it.
  const prefix = Buffer.from(text).subarray(0, limit).toString('utf8').replace(/\uFFFD$/, '');
  return { text: prefix, cutFrom: bytes };
}
