// Bulk loading: many new resources into one layer, much faster than one Repository.write each, with the same rows.
// Preparing a batch (stored form, JSON, index rows) needs no database, so it can run in a worker thread while this
// thread writes the previous batch; writing uses multi-row INSERTs, and the secondary indexes are dropped for the
// load and rebuilt once at the end (a sort instead of one random b-tree insert per row).
//
// Only for resources new to the layer (version 1): a resource already there fails the load on resource_current's
// primary key rather than becoming version 2. The test in test/resources/storage/bulk.test.ts proves a bulk load
// writes exactly the rows and index entries that Repository.write does.
import type Database from 'better-sqlite3';
import type { Resource } from '@medplum/fhirtypes';
import type { Clock } from './sandbox.ts';
import type { Store } from './store.ts';
import { storedForm } from './stored-form.ts';

/** Extracts an indexer's rows for resources, as plain data (runs in this thread or a worker). */
export interface Preparer {
  add(rid: number, sandbox: string, resource: Resource): void;
  /** The rows added since the last take. */
  take(): unknown;
}

/** What an indexer offers a bulk load (ResourceIndexer.bulk). */
export interface BulkIndexer {
  /** How a worker thread builds this indexer's Preparer: a module exporting `createPreparer(state)`, and the state. */
  preparer(db: Database.Database): { module: string; state: unknown };
  /** A Preparer in this thread. */
  inline(db: Database.Database): Preparer;
  /** Write what a Preparer took, adding `ridOffset` to its batch-local rids. */
  write(db: Database.Database, payload: unknown, ridOffset: number): void;
}

/** A batch ready to write, as plain (structured-cloneable) data. */
export interface PreparedBatch {
  count: number;
  /** Flat (type, id, lastUpdated, json) per resource, in write order. */
  rows: string[];
  /** One payload per indexer of the store, in the store's order. */
  index: unknown[];
}

/** Builds PreparedBatches: each resource as version 1 at the clock's next instant, as Repository.write would. */
export class BatchPreparer {
  private rows: string[] = [];
  private n = 0;

  constructor(private readonly sandbox: string, private readonly clock: Clock, private readonly preparers: Preparer[]) {}

  get count(): number {
    return this.n;
  }

  add(resource: Resource & { id: string }): void {
    const lastUpdated = this.clock.now().toISOString();
    const stored = storedForm(resource, 1, lastUpdated);
    this.rows.push(stored.resourceType, stored.id, lastUpdated, JSON.stringify(stored));
    for (const p of this.preparers) p.add(this.n, this.sandbox, stored);
    this.n++;
  }

  take(): PreparedBatch {
    const batch = { count: this.n, rows: this.rows, index: this.preparers.map((p) => p.take()) };
    this.rows = [];
    this.n = 0;
    return batch;
  }
}

/** The bulk indexers of a store, or undefined when one of its indexers has no bulk path. */
export function bulkIndexers(store: Store): BulkIndexer[] | undefined {
  const list = store.indexers.map((i) => (i as { bulk?: BulkIndexer }).bulk);
  return list.every((b) => b !== undefined) ? (list as BulkIndexer[]) : undefined;
}

const ROWS_PER_INSERT = 64;

export class BulkLoader {
  private readonly db: Database.Database;
  private readonly indexers: BulkIndexer[];
  private deferred: { name: string; sql: string }[] = [];
  private synchronous: unknown;
  private readonly statements = new Map<number, Database.Statement>();
  private readonly maxRowid;
  private readonly history;

  constructor(private readonly store: Store, private readonly sandbox: string) {
    const indexers = bulkIndexers(store);
    if (!indexers) throw new Error('a bulk load needs every indexer of the store to support it');
    this.indexers = indexers;
    this.db = store.db;
    this.maxRowid = this.db.prepare<[], { m: number }>('SELECT coalesce(max(rowid), 0) AS m FROM resource_current');
    // A resource's only version is its current one: its history row holds no JSON copy (see Store.writeVersion).
    this.history = this.db.prepare(`INSERT INTO resource_history (sandbox, type, id, version, last_updated, deleted, json)
      SELECT sandbox, type, id, version, last_updated, deleted, NULL FROM resource_current WHERE rowid BETWEEN ? AND ? ORDER BY rowid`);
  }

  /** Preparers for this thread, in the store's indexer order. */
  inlinePreparers(): Preparer[] {
    return this.indexers.map((b) => b.inline(this.db));
  }

  /** How a worker builds the same preparers. */
  preparerSpecs(): { module: string; state: unknown }[] {
    return this.indexers.map((b) => b.preparer(this.db));
  }

  /**
   * Drop the secondary indexes until `finish`: not primary keys or unique constraints (their indexes have no SQL),
   * nor a CREATE UNIQUE INDEX, which must keep refusing duplicates during the load.
   */
  begin(): void {
    this.deferred = this.db.prepare<[], { name: string; sql: string }>(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%'").all();
    for (const { name } of this.deferred) this.db.exec(`DROP INDEX "${name.replace(/"/g, '""')}"`);
    // No fsync at WAL checkpoints during the load (~20% of its write time). An application crash still cannot
    // corrupt a WAL database; an OS crash could lose the load's last transactions, and an unfinished load is rebuilt
    // anyway (the dataset metadata says "building" until it ends).
    this.synchronous = this.db.pragma('synchronous', { simple: true });
    this.db.pragma('synchronous = OFF');
  }

  /** Write batches, in order, in one transaction. */
  write(...batches: PreparedBatch[]): void {
    this.store.transaction(() => {
      for (const batch of batches) {
        if (batch.count === 0) continue;
        // New rows of a rowid table get max(rowid) + 1, so the batch's rids are consecutive from here.
        const first = this.maxRowid.get()!.m + 1;
        this.insertCurrent(batch.rows);
        const last = this.maxRowid.get()!.m;
        if (last !== first + batch.count - 1) throw new Error(`bulk load: expected rowids ${first}..${first + batch.count - 1}, got up to ${last}`);
        this.history.run(first, last);
        this.indexers.forEach((b, i) => b.write(this.db, batch.index[i], first));
      }
    });
  }

  /** Rebuild the indexes `begin` dropped. Call also when the load failed: the schema must stay whole. */
  finish(): void {
    for (const { sql } of this.deferred) this.db.exec(sql);
    this.deferred = [];
    if (this.synchronous !== undefined) this.db.pragma(`synchronous = ${Number(this.synchronous)}`);
  }

  private insertCurrent(rows: string[]): void {
    const width = 4;
    for (let offset = 0; offset < rows.length; offset += ROWS_PER_INSERT * width) {
      const n = Math.min(ROWS_PER_INSERT, (rows.length - offset) / width);
      let stmt = this.statements.get(n);
      if (!stmt) {
        const tuple = `('${this.sandbox.replace(/'/g, "''")}', ?, ?, 1, ?, 0, ?)`;
        stmt = this.db.prepare(`INSERT INTO resource_current (sandbox, type, id, version, last_updated, deleted, json) VALUES ${new Array(n).fill(tuple).join(', ')}`);
        this.statements.set(n, stmt);
      }
      stmt.run(rows.slice(offset, offset + n * width));
    }
  }
}
