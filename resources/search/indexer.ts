// Write-time indexing: inside the resource write's transaction, replace the resource's rows in every index table
// (FHIR search sees the latest write at once; there is no result cache). The rows come from IndexRowBuilder
// (index-rows.ts), which a bulk load also runs in a worker thread, so both paths write the same rows.
import type Database from 'better-sqlite3';
import type { Resource } from '@medplum/fhirtypes';
import type { ResourceIndexer } from '../storage/store.ts';
import type { BulkIndexer } from '../storage/bulk.ts';
import { defaultRegistry, type SearchParameterRegistry } from './registry.ts';
import { INDEX_SCHEMA, INDEX_TABLES, INDEX_VERSION, OLD_TABLES } from './index-tables.ts';
import { IndexRowBuilder, IndexRowWriter, indexedParams, type IndexRows } from './index-rows.ts';
import { ParamKeys } from './param-keys.ts';
import { createPreparer } from './index-preparer.ts';
import { resourceTypes } from '../validation/validate.ts';

const VERSION_KEY = 'search.index.version';

class Statements {
  readonly current;
  readonly deletes;
  readonly clears;
  readonly textDelete;
  readonly textClear;
  readonly keys: ParamKeys;
  readonly writer: IndexRowWriter;
  readonly builder: IndexRowBuilder;

  constructor(db: Database.Database, registry: SearchParameterRegistry) {
    this.current = db.prepare<[string, string, string], { rid: number; version: number }>('SELECT rowid AS rid, version FROM resource_current WHERE sandbox = ? AND type = ? AND id = ?');
    this.deletes = INDEX_TABLES.map((t) => db.prepare(`DELETE FROM ${t} WHERE rid = ?`));
    this.clears = INDEX_TABLES.map((t) => db.prepare(`DELETE FROM ${t} WHERE sandbox = ?`));
    this.textDelete = db.prepare('DELETE FROM search_text WHERE rowid = ?');
    this.textClear = db.prepare('DELETE FROM search_text WHERE rowid IN (SELECT rowid FROM resource_current WHERE sandbox = ?)');
    this.keys = ParamKeys.of(db);
    this.writer = new IndexRowWriter(db);
    this.builder = new IndexRowBuilder(registry, (type, code) => this.keys.key(type, code));
  }
}

export function createIndexer(registry: SearchParameterRegistry): ResourceIndexer & { bulk?: BulkIndexer } {
  const statements = new WeakMap<Database.Database, Statements>();
  const stmtsFor = (db: Database.Database) => {
    let s = statements.get(db);
    if (!s) statements.set(db, (s = new Statements(db, registry)));
    return s;
  };

  const write = (db: Database.Database, sandbox: string, type: string, id: string, resource: Resource | null) => {
    const s = stmtsFor(db);
    const row = s.current.get(sandbox, type, id);
    if (!row) return;
    // Version 1 in this layer: the resource is new here and has no index rows to remove (the common case while
    // seeding). Tombstones keep their resource_current row, so a re-created resource reaches the deletes.
    if (row.version > 1) {
      for (const d of s.deletes) d.run(row.rid);
      s.textDelete.run(row.rid);
    }
    if (!resource) return;
    s.builder.add(0, sandbox, resource);
    s.writer.write(s.builder.take(), row.rid);
  };

  return {
    schema: INDEX_SCHEMA,
    open(db) {
      // Index inserts land at random b-tree positions: with SQLite's default 2 MB page cache a seeded file database
      // rereads pages on nearly every insert. 256 MB (allocated only as used) keeps the hot index pages cached.
      db.pragma('cache_size = -262144');
      // A store written by an earlier index layout (or with no marker) is re-indexed from resource_current.
      const marker = db.prepare<[string], { value: string }>('SELECT value FROM store_metadata WHERE key = ?').get(VERSION_KEY);
      const migrate = marker?.value !== INDEX_VERSION;
      const hasResources = migrate && db.prepare('SELECT 1 FROM resource_current LIMIT 1').get() !== undefined;
      if (hasResources) {
        for (const t of OLD_TABLES) db.exec(`DROP TABLE IF EXISTS ${t}`);
        db.exec(INDEX_SCHEMA);
      }
      const pairs: [string, string][] = [];
      for (const type of resourceTypes) {
        for (const p of indexedParams(registry, type)) {
          pairs.push([type, p.code]);
          if (p.type === 'reference') pairs.push([type, `${p.code}:identifier`]);
        }
      }
      ParamKeys.of(db).ensure(db, pairs);
      if (!migrate) return;
      db.transaction(() => {
        if (hasResources) {
          // In rowid pages: better-sqlite3 cannot write while a read cursor is open.
          const page = db.prepare<[number], { rid: number; sandbox: string; type: string; id: string; json: string }>(
            'SELECT rowid AS rid, sandbox, type, id, json FROM resource_current WHERE rowid > ? AND deleted = 0 ORDER BY rowid LIMIT 2000');
          for (let after = 0, rows = page.all(after); rows.length > 0; after = rows[rows.length - 1].rid, rows = page.all(after)) {
            for (const r of rows) write(db, r.sandbox, r.type, r.id, JSON.parse(r.json) as Resource);
          }
        }
        db.prepare('INSERT INTO store_metadata (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(VERSION_KEY, INDEX_VERSION);
      })();
    },
    write,
    clearSandbox(db, sandbox) {
      const s = stmtsFor(db);
      for (const c of s.clears) c.run(sandbox);
      // FTS rows are found through resource_current: the store calls this before deleting the layer's rows.
      s.textClear.run(sandbox);
    },
    // A worker rebuilds the shipped registry from its module (a registry is code, not data it could be sent): the
    // bulk path exists only for an indexer over that registry, so both paths index by the same parameters.
    bulk: registry === defaultRegistry() ? {
      preparer: (db) => ({ module: new URL('./index-preparer.ts', import.meta.url).href, state: stmtsFor(db).keys.entries() }),
      inline: (db) => createPreparer(stmtsFor(db).keys.entries()),
      write: (db, payload, ridOffset) => stmtsFor(db).writer.write(payload as IndexRows, ridOffset),
    } : undefined,
  };
}


