// The Repository: one method per storage need of the FHIR interactions, scoped to one sandbox.
// Interactions call this and never SQL (FHIR R4 3.1.0 RESTful API; versioning per 3.1.0.1.5).
import type { Resource } from '@medplum/fhirtypes';
import type { Sandbox } from './sandbox.ts';
import type { Statement } from 'better-sqlite3';
import { HISTORY_JSON_SQL, type Store, type StoredVersion } from './store.ts';
import { FhirError, issue } from '../outcome.ts';
import { storedForm } from './stored-form.ts';

export interface HistoryQuery {
  type?: string;
  id?: string;
  /** Only versions last updated at or after this instant (ISO string). */
  since?: string;
  /** Only versions last updated before this instant (ISO string; `_at` style upper bound). */
  before?: string;
  count: number;
  offset: number;
}

export interface HistoryPage {
  total: number;
  versions: StoredVersion[];
}

type HistoryRow = {
  sandbox: string; type: string; id: string; version: number; last_updated: string; deleted: number; json: string | null;
};

export class Repository {
  private readonly statements = new Map<string, Statement<unknown[]>>();

  constructor(readonly store: Store, readonly sandbox: Sandbox) {}

  get now(): Date {
    return this.sandbox.clock.now();
  }

  /** The visible latest version: the most specific layer holding the resource wins, tombstones included. */
  current(type: string, id: string): StoredVersion | undefined {
    for (const layer of this.sandbox.layers) {
      const found = this.store.currentIn(layer, type, id);
      if (found) return found;
    }
    return undefined;
  }

  /** A live (not deleted) resource, parsed. */
  readLive(type: string, id: string): Resource | undefined {
    const found = this.current(type, id);
    return found && !found.deleted && found.json ? (JSON.parse(found.json) as Resource) : undefined;
  }

  exists(type: string, id: string): boolean {
    const found = this.current(type, id);
    return !!found && !found.deleted;
  }

  version(type: string, id: string, version: number): StoredVersion | undefined {
    for (const layer of this.sandbox.layers) {
      const found = this.store.versionIn(layer, type, id, version);
      if (found) return found;
    }
    return undefined;
  }

  /** Store a new version of `resource` (its id must be set). Returns the stored version. */
  write(resource: Resource & { id: string }): StoredVersion {
    this.assertWritable();
    const previous = this.current(resource.resourceType, resource.id);
    const version = (previous?.version ?? 0) + 1;
    const lastUpdated = this.now.toISOString();
    const stored = storedForm(resource, version, lastUpdated);
    const json = this.store.writeVersion(this.sandbox.name, resource.resourceType, resource.id, version, lastUpdated, stored);
    return { sandbox: this.sandbox.name, type: resource.resourceType, id: resource.id, version, lastUpdated, deleted: false, json };
  }

  /** Record a deletion. Returns the tombstone, or undefined when there was nothing live to delete. */
  remove(type: string, id: string): StoredVersion | undefined {
    this.assertWritable();
    const previous = this.current(type, id);
    if (!previous || previous.deleted) return undefined;
    const version = previous.version + 1;
    const lastUpdated = this.now.toISOString();
    this.store.writeVersion(this.sandbox.name, type, id, version, lastUpdated, null);
    return { sandbox: this.sandbox.name, type, id, version, lastUpdated, deleted: true, json: null };
  }

  /**
   * Every visible live resource of a type, streamed (memory does not grow with the number of rows): the sandbox's
   * own rows, then base rows the sandbox has not shadowed.
   */
  *scan(type: string): Generator<Resource> {
    const [own, ...lower] = this.sandbox.layers;
    const sql = lower.length === 0
      ? 'SELECT json FROM resource_current WHERE sandbox = ? AND type = ? AND deleted = 0'
      : `SELECT json FROM resource_current WHERE sandbox = ? AND type = ? AND deleted = 0
         UNION ALL
         SELECT b.json FROM resource_current b WHERE b.sandbox = ? AND b.type = ? AND b.deleted = 0
           AND NOT EXISTS (SELECT 1 FROM resource_current o WHERE o.sandbox = ? AND o.type = b.type AND o.id = b.id)`;
    const params = lower.length === 0 ? [own, type] : [own, type, lower[0], type, own];
    for (const row of this.prepare(sql).iterate(...params) as Iterable<{ json: string }>) {
      yield JSON.parse(row.json) as Resource;
    }
  }

  /**
   * One page of `scan`: up to `limit` visible live resources of a type with id > `afterId` (from the start when
   * undefined), ordered by id across both layers (binary collation). Keyset paging: each call runs to completion, so
   * no cursor stays open between pages (an open better-sqlite3 iterator blocks writes on the shared connection) and
   * a caller may yield to the event loop between pages. Pass the last id of a page as the next `afterId`.
   */
  scanPage(type: string, afterId: string | undefined, limit: number): Resource[] {
    const [own, ...lower] = this.sandbox.layers;
    // A compound SELECT with ORDER BY: SQLite merges the two branches, each read in primary-key order, and stops
    // at LIMIT, so a page costs O(limit) however far into the type it starts.
    const sql = lower.length === 0
      ? 'SELECT id, json FROM resource_current WHERE sandbox = ? AND type = ? AND id > ? AND deleted = 0 ORDER BY id LIMIT ?'
      : `SELECT id, json FROM resource_current WHERE sandbox = ? AND type = ? AND id > ? AND deleted = 0
         UNION ALL
         SELECT b.id, b.json FROM resource_current b WHERE b.sandbox = ? AND b.type = ? AND b.id > ? AND b.deleted = 0
           AND NOT EXISTS (SELECT 1 FROM resource_current o WHERE o.sandbox = ? AND o.type = b.type AND o.id = b.id)
         ORDER BY id LIMIT ?`;
    const after = afterId ?? '';
    const n = sqlInteger(limit);
    const params = lower.length === 0 ? [own, type, after, n] : [own, type, after, lower[0], type, after, own, n];
    return (this.prepare(sql).all(...params) as { json: string }[]).map((row) => JSON.parse(row.json) as Resource);
  }

  newId(): string {
    return this.sandbox.newId();
  }

  /** Instance, type or system history across this sandbox's layers, newest first (FHIR R4 3.1.0.6). */
  history(query: HistoryQuery): HistoryPage {
    const layers = this.sandbox.layers;
    const where = [`sandbox IN (${layers.map(() => '?').join(', ')})`];
    const params: (string | number)[] = [...layers];
    if (query.type) { where.push('type = ?'); params.push(query.type); }
    if (query.id) { where.push('id = ?'); params.push(query.id); }
    if (query.since) { where.push('last_updated >= ?'); params.push(query.since); }
    if (query.before) { where.push('last_updated < ?'); params.push(query.before); }
    const clause = where.join(' AND ');
    const order = query.id ? 'version DESC' : 'last_updated DESC, rowid DESC';
    const total = (this.prepare(`SELECT count(*) AS n FROM resource_history WHERE ${clause}`).get(...params) as { n: number }).n;
    // Only the page's rows resolve their JSON (a layer's live current version has it in resource_current).
    const rows = this.prepare(
      `SELECT h.sandbox, h.type, h.id, h.version, h.last_updated, h.deleted, ${HISTORY_JSON_SQL} AS json
       FROM resource_history h WHERE ${clause} ORDER BY ${order} LIMIT ? OFFSET ?`)
      .all(...params, sqlInteger(query.count), sqlInteger(query.offset)) as HistoryRow[];
    return { total, versions: rows.map(toStoredVersion) };
  }

  /**
   * Position of this sandbox's newest write in the store's write order (0 before any). The sandbox's own newest row
   * stays in place until the sandbox is cleared, so every later write gets a larger position.
   */
  writePosition(): number {
    const row = this.prepare('SELECT max(rowid) AS w FROM resource_history WHERE sandbox = ?').get(this.sandbox.name) as { w: number | null } | undefined;
    return row?.w ?? 0;
  }

  /** The JSON of the live resources of these types that this sandbox itself holds (not its lower layers), by type and id. */
  ownLive(types: readonly string[]): string[] {
    const rows = this.prepare(`SELECT json FROM resource_current WHERE sandbox = ? AND type IN (${types.map(() => '?').join(', ')})
      AND deleted = 0 AND json IS NOT NULL ORDER BY type, id`).all(this.sandbox.name, ...types) as { json: string }[];
    return rows.map((r) => r.json);
  }

  /** When this sandbox itself last wrote (its clock's instant), if it ever did. */
  lastWriteTime(): string | undefined {
    const row = this.prepare('SELECT max(last_updated) AS t FROM resource_history WHERE sandbox = ?').get(this.sandbox.name) as { t: string | null } | undefined;
    return row?.t ?? undefined;
  }

  /** Every version this sandbox itself wrote after `position` (writePosition), oldest first. */
  writesAfter(position: number): StoredVersion[] {
    const rows = this.prepare(
      `SELECT h.sandbox, h.type, h.id, h.version, h.last_updated, h.deleted, ${HISTORY_JSON_SQL} AS json
       FROM resource_history h WHERE h.sandbox = ? AND h.rowid > ? ORDER BY h.rowid`).all(this.sandbox.name, sqlInteger(position)) as HistoryRow[];
    return rows.map(toStoredVersion);
  }

  /** Run fn atomically: every write inside commits together or not at all. */
  transaction<T>(fn: () => T): T {
    return this.store.transaction(fn);
  }

  private prepare(sql: string): Statement<unknown[]> {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.store.db.prepare<unknown[]>(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  private assertWritable(): void {
    if (!this.sandbox.writable) {
      throw new FhirError(403, [issue('error', 'forbidden', `The ${this.sandbox.name} data set is read-only`)]);
    }
  }
}

function toStoredVersion(r: HistoryRow): StoredVersion {
  return { sandbox: r.sandbox, type: r.type, id: r.id, version: r.version, lastUpdated: r.last_updated, deleted: r.deleted === 1, json: r.json };
}

/** SQLite binds numbers past 2^53 as reals, which LIMIT/OFFSET reject; a huge page offset simply means "past the end". */
function sqlInteger(n: number): number {
  return Math.min(Math.max(0, Math.trunc(n)), Number.MAX_SAFE_INTEGER);
}
