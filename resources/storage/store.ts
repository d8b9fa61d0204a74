// The SQLite store: one database file holding the base layer and every sandbox's overlay.
import Database from 'better-sqlite3';
import type { Resource } from '@medplum/fhirtypes';

/** One stored version of a resource, as the storage layer sees it. */
export interface StoredVersion {
  sandbox: string;
  type: string;
  id: string;
  version: number;
  lastUpdated: string;
  deleted: boolean;
  /** The resource JSON (with meta.versionId and meta.lastUpdated); null for a deletion. */
  json: string | null;
}

/**
 * Keeps derived rows (search indexes) in step with resource writes. Called inside the write's SQLite transaction,
 * so a resource and its index rows are never out of step.
 */
export interface ResourceIndexer {
  /** DDL for the indexer's tables, run once when the store opens. */
  readonly schema: string;
  /** Optional: run once when a writable store opens, after the schema (e.g. to migrate or rebuild the index). */
  open?(db: Database.Database): void;
  /**
   * Replace the index rows of one resource in one sandbox layer (resource null: remove them). Called after the
   * resource_current row is upserted, so its rowid may key the index rows.
   */
  write(db: Database.Database, sandbox: string, type: string, id: string, resource: Resource | null): void;
  /** Remove every index row of one sandbox layer (called before the layer's resource_current rows are deleted). */
  clearSandbox(db: Database.Database, sandbox: string): void;
}

/**
 * The JSON of history row `h`, for readers of resource_history. Each version's JSON is stored once: a history row
 * holds NULL while its version is the current one of its layer (the JSON is in resource_current), and gets the JSON
 * copied in when a later write to that layer supersedes it. A deletion's row is NULL either way (deleted = 1).
 * Databases written when both tables held every JSON read the same (h.json comes first), so no migration is needed.
 */
export const HISTORY_JSON_SQL =
  'COALESCE(h.json, (SELECT c.json FROM resource_current c WHERE c.sandbox = h.sandbox AND c.type = h.type AND c.id = h.id AND c.version = h.version))';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS resource_history (
  sandbox TEXT NOT NULL, type TEXT NOT NULL, id TEXT NOT NULL, version INTEGER NOT NULL,
  last_updated TEXT NOT NULL, deleted INTEGER NOT NULL, json TEXT,
  UNIQUE (sandbox, type, id, version)
);
CREATE INDEX IF NOT EXISTS resource_history_time ON resource_history (sandbox, last_updated);
CREATE INDEX IF NOT EXISTS resource_history_type_time ON resource_history (sandbox, type, last_updated);
CREATE TABLE IF NOT EXISTS resource_current (
  sandbox TEXT NOT NULL, type TEXT NOT NULL, id TEXT NOT NULL, version INTEGER NOT NULL,
  last_updated TEXT NOT NULL, deleted INTEGER NOT NULL, json TEXT,
  PRIMARY KEY (sandbox, type, id)
);
CREATE TABLE IF NOT EXISTS store_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

export interface StoreOptions {
  /** Database file; ':memory:' for an in-memory store. */
  path: string;
  indexers?: ResourceIndexer[];
  readonly?: boolean;
}

type Row = {
  sandbox: string; type: string; id: string; version: number; last_updated: string; deleted: number; json: string | null;
};

function toStored(row: Row): StoredVersion {
  return {
    sandbox: row.sandbox, type: row.type, id: row.id, version: row.version,
    lastUpdated: row.last_updated, deleted: row.deleted === 1, json: row.json,
  };
}

export class Store {
  readonly db: Database.Database;
  readonly indexers: readonly ResourceIndexer[];
  private readonly stmts;
  /**
   * Archived JSON, history row, current row and index rows commit together: an indexer that throws (or a version
   * clash) leaves nothing half-written. Inside an enclosing transaction (a transaction Bundle) this runs as a savepoint.
   */
  private readonly writeRows: (
    sandbox: string, type: string, id: string, version: number, lastUpdated: string, deleted: number, json: string | null, resource: Resource | null,
  ) => void;

  constructor(options: StoreOptions) {
    this.db = new Database(options.path, { readonly: options.readonly ?? false });
    this.indexers = options.indexers ?? [];
    if (options.path !== ':memory:' && !options.readonly) this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    // Several processes may share one database file (a server and a task checker): wait for a lock, don't fail.
    this.db.pragma('busy_timeout = 10000');
    this.db.pragma('foreign_keys = OFF');
    if (!options.readonly) {
      this.db.exec(SCHEMA);
      for (const indexer of this.indexers) this.db.exec(indexer.schema);
      for (const indexer of this.indexers) indexer.open?.(this.db);
    }
    const db = this.db;
    this.stmts = {
      current: db.prepare<[string, string, string], Row>(
        'SELECT * FROM resource_current WHERE sandbox = ? AND type = ? AND id = ?'),
      version: db.prepare<[string, string, string, number], Row>(
        `SELECT h.sandbox, h.type, h.id, h.version, h.last_updated, h.deleted, ${HISTORY_JSON_SQL} AS json
         FROM resource_history h WHERE h.sandbox = ? AND h.type = ? AND h.id = ? AND h.version = ?`),
      // Before a write supersedes a layer's current live version, its JSON moves into that version's history row.
      archiveCurrent: db.prepare<[string, string, string]>(
        `UPDATE resource_history SET json = c.json FROM resource_current c
         WHERE c.sandbox = ? AND c.type = ? AND c.id = ? AND c.deleted = 0
           AND resource_history.sandbox = c.sandbox AND resource_history.type = c.type AND resource_history.id = c.id
           AND resource_history.version = c.version AND resource_history.json IS NULL`),
      insertHistory: db.prepare(
        'INSERT INTO resource_history (sandbox, type, id, version, last_updated, deleted, json) VALUES (?, ?, ?, ?, ?, ?, ?)'),
      upsertCurrent: db.prepare(
        `INSERT INTO resource_current (sandbox, type, id, version, last_updated, deleted, json) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (sandbox, type, id) DO UPDATE SET version = excluded.version, last_updated = excluded.last_updated,
         deleted = excluded.deleted, json = excluded.json`),
      clearHistory: db.prepare('DELETE FROM resource_history WHERE sandbox = ?'),
      clearCurrent: db.prepare('DELETE FROM resource_current WHERE sandbox = ?'),
      countCurrent: db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM resource_current WHERE sandbox = ?'),
      getMeta: db.prepare<[string], { value: string }>('SELECT value FROM store_metadata WHERE key = ?'),
      setMeta: db.prepare('INSERT INTO store_metadata (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
    };
    this.writeRows = db.transaction((sandbox: string, type: string, id: string, version: number, lastUpdated: string, deleted: number, json: string | null, resource: Resource | null) => {
      // Versions continue the visible current one, so version 1 (every seeded resource) supersedes nothing here.
      if (version > 1) this.stmts.archiveCurrent.run(sandbox, type, id);
      // The new version's JSON is stored once, in resource_current; its history row points there (HISTORY_JSON_SQL).
      this.stmts.insertHistory.run(sandbox, type, id, version, lastUpdated, deleted, null);
      this.stmts.upsertCurrent.run(sandbox, type, id, version, lastUpdated, deleted, json);
      for (const indexer of this.indexers) indexer.write(db, sandbox, type, id, resource);
    });
  }

  /** The latest version of a resource in exactly one layer. */
  currentIn(sandbox: string, type: string, id: string): StoredVersion | undefined {
    const row = this.stmts.current.get(sandbox, type, id);
    return row ? toStored(row) : undefined;
  }

  versionIn(sandbox: string, type: string, id: string, version: number): StoredVersion | undefined {
    const row = this.stmts.version.get(sandbox, type, id, version);
    return row ? toStored(row) : undefined;
  }

  /** Write one version (a resource, or a deletion when `resource` is null) into a layer, with its index rows. */
  writeVersion(sandbox: string, type: string, id: string, version: number, lastUpdated: string, resource: Resource | null): string | null {
    const json = resource ? JSON.stringify(resource) : null;
    this.writeRows(sandbox, type, id, version, lastUpdated, resource ? 0 : 1, json, resource);
    return json;
  }

  /** Remove everything one sandbox layer holds. Costs O(rows in that layer). */
  clearSandbox(sandbox: string): void {
    this.transaction(() => {
      for (const indexer of this.indexers) indexer.clearSandbox(this.db, sandbox);
      this.stmts.clearHistory.run(sandbox);
      this.stmts.clearCurrent.run(sandbox);
    });
  }

  countIn(sandbox: string): number {
    return this.stmts.countCurrent.get(sandbox)?.n ?? 0;
  }

  getMetadata(key: string): string | undefined {
    return this.stmts.getMeta.get(key)?.value;
  }

  setMetadata(key: string, value: string): void {
    this.stmts.setMeta.run(key, value);
  }

  /** Run fn in one SQLite transaction; nested calls become savepoints, so an inner failure can roll back alone. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  close(): void {
    this.db.close();
  }
}
