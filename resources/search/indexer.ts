// Write-time indexing: inside the resource write's transaction, replace the resource's rows in every index table
// (FHIR search sees the latest write at once; there is no result cache). Rows are collected per table for the
// whole resource and written with one multi-row INSERT per table (per-statement overhead dominates small rows).
import type Database from 'better-sqlite3';
import type { Resource } from '@medplum/fhirtypes';
import type { ResourceIndexer } from '../storage/store.ts';
import type { SearchParam, SearchParameterRegistry } from './registry.ts';
import { INDEX_SCHEMA, INDEX_TABLES, INDEX_VERSION, OLD_TABLES } from './index-tables.ts';
import { dateRows, numberRows, quantityRows, referenceRows, stringRows, tokenRows, uriRows } from './values.ts';
import { documentText } from './text.ts';
import { ParamKeys } from './param-keys.ts';
import { resourceTypes } from '../validation/validate.ts';

/** One indexed parameter of a type, with its keys in one database. */
interface Entry { param: SearchParam; key: number; identifierKey: number; roots?: string[] }

/** Parameters answered from resource_current (or not by an index table at all). */
const NOT_INDEXED = new Set(['_id', '_lastUpdated']);

type Table = (typeof INDEX_TABLES)[number];
/** Value columns after (rid, param, seq, sandbox), per table. */
const COLUMNS: Record<Table, number> = {
  search_string: 2, search_token: 4, search_date: 2, search_reference: 3, search_quantity: 4, search_number: 1, search_uri: 1, search_composite: 8,
};
/** Largest multi-row INSERT (SQLite allows 32766 bound parameters; 64 rows x 12 columns stays far below). */
const MAX_ROWS = 64;

const VERSION_KEY = 'search.index.version';

/** The rows one resource writes, per table: flat parameter lists, `4 + COLUMNS[table]` values a row. */
class RowBuffer {
  readonly values = new Map<Table, unknown[]>();
  seq = 0;
  constructor(readonly rid: number, readonly sandbox: string) {}
  add(table: Table, param: number, ...columns: unknown[]): void {
    let list = this.values.get(table);
    if (!list) this.values.set(table, (list = []));
    list.push(this.rid, param, this.seq++, this.sandbox, ...columns);
  }
}

class Statements {
  private readonly inserts = new Map<string, Database.Statement>();
  readonly current;
  readonly deletes;
  readonly clears;
  readonly textInsert;
  readonly textDelete;
  readonly textClear;
  readonly keys: ParamKeys;
  readonly entries = new Map<string, Entry[]>();

  constructor(private readonly db: Database.Database) {
    this.current = db.prepare<[string, string, string], { rid: number; version: number }>('SELECT rowid AS rid, version FROM resource_current WHERE sandbox = ? AND type = ? AND id = ?');
    this.deletes = INDEX_TABLES.map((t) => db.prepare(`DELETE FROM ${t} WHERE rid = ?`));
    this.clears = INDEX_TABLES.map((t) => db.prepare(`DELETE FROM ${t} WHERE sandbox = ?`));
    this.textInsert = db.prepare('INSERT INTO search_text (rowid, narrative, content) VALUES (?, ?, ?)');
    this.textDelete = db.prepare('DELETE FROM search_text WHERE rowid = ?');
    this.textClear = db.prepare('DELETE FROM search_text WHERE rowid IN (SELECT rowid FROM resource_current WHERE sandbox = ?)');
    this.keys = ParamKeys.of(db);
  }

  insert(table: Table, values: unknown[]): void {
    const width = 4 + COLUMNS[table];
    let rows = values.length / width;
    let offset = 0;
    while (rows > 0) {
      const n = Math.min(rows, MAX_ROWS);
      const key = `${table}:${n}`;
      let stmt = this.inserts.get(key);
      if (!stmt) {
        const tuple = `(${new Array(width).fill('?').join(', ')})`;
        stmt = this.db.prepare(`INSERT INTO ${table} VALUES ${new Array(n).fill(tuple).join(', ')}`);
        this.inserts.set(key, stmt);
      }
      stmt.run(n === rows && offset === 0 ? values : values.slice(offset, offset + n * width));
      offset += n * width;
      rows -= n;
    }
  }
}

export function createIndexer(registry: SearchParameterRegistry): ResourceIndexer {
  const statements = new WeakMap<Database.Database, Statements>();
  const paramsByType = new Map<string, SearchParam[]>();
  const stmtsFor = (db: Database.Database) => {
    let s = statements.get(db);
    if (!s) statements.set(db, (s = new Statements(db)));
    return s;
  };
  const params = (type: string) => {
    let list = paramsByType.get(type);
    if (!list) paramsByType.set(type, (list = registry.forType(type).filter((p) => !NOT_INDEXED.has(p.code) && !p.alias)));
    return list;
  };
  /** Per type, computed once per database: the parameters to index with their keys (nothing per resource). */
  const entries = (s: Statements, type: string) => {
    let list = s.entries.get(type);
    if (!list) {
      list = params(type).map((param) => ({
        param, key: s.keys.key(type, param.code), roots: param.roots,
        identifierKey: param.type === 'reference' ? s.keys.key(type, `${param.code}:identifier`) : -1,
      }));
      s.entries.set(type, list);
    }
    return list;
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
    const r = resource as unknown as Record<string, unknown>;
    const buffer = new RowBuffer(row.rid, sandbox);
    for (const entry of entries(s, type)) {
      // Skip parameters whose top-level elements the resource lacks (most of a type's ~40 parameters).
      const roots = entry.roots;
      if (roots) {
        let present = false;
        for (let i = 0; i < roots.length && !present; i++) present = r[roots[i]] !== undefined;
        if (!present) continue;
      }
      indexParam(buffer, entry, r);
    }
    for (const [table, values] of buffer.values) s.insert(table, values);
    const text = documentText(resource);
    if (text) s.textInsert.run(row.rid, text.narrative, text.content);
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
        for (const p of params(type)) {
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
  };
}

function indexParam(b: RowBuffer, entry: Entry, resource: Record<string, unknown>): void {
  const { param, key } = entry;
  const values = param.extract(resource);
  if (values.length === 0) return;
  switch (param.type) {
    case 'string':
      for (const row of dedupe(stringRows(values), (r) => r.exact)) b.add('search_string', key, row.value, row.exact);
      break;
    case 'token':
      for (const row of tokenRows(values)) b.add('search_token', key, row.system, row.code, row.text, row.ofType);
      break;
    case 'date':
      for (const row of dateRows(values)) b.add('search_date', key, row.start, row.end);
      break;
    case 'reference': {
      const { refs, identifiers } = referenceRows(values);
      for (const row of refs) b.add('search_reference', key, row.targetType, row.targetId, row.url);
      // `:identifier` searches Reference.identifier: kept as token rows under `<param>:identifier`.
      for (const row of identifiers) b.add('search_token', entry.identifierKey, row.system, row.code, null, null);
      break;
    }
    case 'quantity':
      for (const row of quantityRows(values)) b.add('search_quantity', key, row.value, row.system, row.code, row.unit);
      break;
    case 'number':
      for (const v of numberRows(values)) b.add('search_number', key, v);
      break;
    case 'uri':
      for (const v of uriRows(values)) b.add('search_uri', key, v);
      break;
    case 'composite':
      indexComposite(b, key, param, values.map((v) => v.value as Record<string, unknown>));
      break;
  }
}

function indexComposite(b: RowBuffer, key: number, param: SearchParam, items: Record<string, unknown>[]): void {
  const [first, second] = param.components!;
  for (const item of items) {
    if (!item || typeof item !== 'object') continue;
    const tokens = tokenRows(first.extract(item)).filter((t) => t.code !== null);
    if (tokens.length === 0) continue;
    const values = second.extract(item);
    const seconds: (string | number | null)[][] = [];
    switch (second.param.type) {
      case 'token':
        for (const t of tokenRows(values)) if (t.code !== null) seconds.push([t.system, t.code, null, null, null, null]);
        break;
      case 'quantity':
        for (const q of quantityRows(values)) seconds.push([q.system, q.code ?? q.unit, q.value, null, null, null]);
        break;
      case 'number':
        for (const n of numberRows(values)) seconds.push([null, null, n, null, null, null]);
        break;
      case 'date':
        for (const d of dateRows(values)) seconds.push([null, null, null, d.start, d.end, null]);
        break;
      case 'string':
        for (const v of stringRows(values)) seconds.push([null, null, null, null, null, v.value]);
        break;
      case 'reference':
        for (const r of referenceRows(values).refs) seconds.push([r.targetType, r.targetId, null, null, null, r.url]);
        break;
      case 'uri':
        for (const v of uriRows(values)) seconds.push([null, null, null, null, null, v]);
        break;
    }
    for (const t of tokens) for (const v of seconds) b.add('search_composite', key, t.system, t.code, ...v);
  }
}

function dedupe<T>(rows: T[], key: (row: T) => string): T[] {
  if (rows.length < 2) return rows;
  const seen = new Set<string>();
  return rows.filter((r) => (seen.has(key(r)) ? false : (seen.add(key(r)), true)));
}
