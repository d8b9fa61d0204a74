// Index rows as plain data: extracting a resource's rows needs no database (only the parameters' integer keys), so
// the same code serves a single write inside its transaction and a bulk load whose extraction runs in a worker
// thread. Rows are flat per-table value lists, `4 + COLUMNS[table]` values a row: (rid, param, seq, sandbox,
// ...columns). `rid` holds a position local to the batch until `writeIndexRows` adds the batch's first rowid.
import type Database from 'better-sqlite3';
import type { Resource } from '@medplum/fhirtypes';
import type { SearchParam, SearchParameterRegistry } from './registry.ts';
import { INDEX_TABLES } from './index-tables.ts';
import { dateRows, numberRows, quantityRows, referenceRows, stringRows, tokenRows, uriRows } from './values.ts';
import { documentText } from './text.ts';

export type Table = (typeof INDEX_TABLES)[number];

/** Value columns after (rid, param, seq, sandbox), per table. */
export const COLUMNS: Record<Table, number> = {
  search_string: 2, search_token: 4, search_date: 2, search_reference: 3, search_quantity: 4, search_number: 1, search_uri: 1, search_composite: 8,
};

/** Parameters answered from resource_current (or not by an index table at all). */
const NOT_INDEXED = new Set(['_id', '_lastUpdated']);

/** The rows of a batch of resources: per index table, and full-text rows as (rid, narrative, content). */
export interface IndexRows {
  tables: Partial<Record<Table, unknown[]>>;
  text: unknown[];
}

/** Integer key of a (resource type, parameter code) pair (see ParamKeys). */
export type KeyOf = (type: string, code: string) => number;

/** One indexed parameter of a type, with its keys. */
interface Entry { param: SearchParam; key: number; identifierKey: number; roots?: string[] }

/** The parameters the index tables hold for a type (aliases are answered from the rows of others). */
export function indexedParams(registry: SearchParameterRegistry, type: string): SearchParam[] {
  return registry.forType(type).filter((p) => !NOT_INDEXED.has(p.code) && !p.alias);
}

/** Collects the index rows of resources, one after another, into one IndexRows. */
export class IndexRowBuilder {
  private rows: IndexRows = { tables: {}, text: [] };
  private rid = 0;
  private sandbox = '';
  private seq = 0;
  private readonly entries = new Map<string, Entry[]>();

  constructor(private readonly registry: SearchParameterRegistry, private readonly keyOf: KeyOf) {}

  /** Add one resource's rows under batch-local position `rid`. */
  add(rid: number, sandbox: string, resource: Resource): void {
    this.rid = rid;
    this.sandbox = sandbox;
    this.seq = 0;
    const r = resource as unknown as Record<string, unknown>;
    for (const entry of this.entriesFor(resource.resourceType)) {
      // Skip parameters whose top-level elements the resource lacks (most of a type's ~40 parameters).
      const roots = entry.roots;
      if (roots) {
        let present = false;
        for (let i = 0; i < roots.length && !present; i++) present = r[roots[i]] !== undefined;
        if (!present) continue;
      }
      this.addParam(entry, r);
    }
    const text = documentText(resource);
    if (text) this.rows.text.push(rid, text.narrative, text.content);
  }

  /** The rows collected so far; the builder starts empty again. */
  take(): IndexRows {
    const rows = this.rows;
    this.rows = { tables: {}, text: [] };
    return rows;
  }

  private entriesFor(type: string): Entry[] {
    let list = this.entries.get(type);
    if (!list) {
      list = indexedParams(this.registry, type).map((param) => ({
        param, key: this.keyOf(type, param.code), roots: param.roots,
        identifierKey: param.type === 'reference' ? this.keyOf(type, `${param.code}:identifier`) : -1,
      }));
      this.entries.set(type, list);
    }
    return list;
  }

  /** Start a row: push its key values and return the list its columns go on (no rest arguments: this is hot). */
  private row(table: Table, param: number): unknown[] {
    const list = (this.rows.tables[table] ??= []);
    list.push(this.rid, param, this.seq++, this.sandbox);
    return list;
  }

  private addParam(entry: Entry, resource: Record<string, unknown>): void {
    const { param, key } = entry;
    const values = param.extract(resource);
    if (values.length === 0) return;
    switch (param.type) {
      case 'string':
        for (const row of dedupe(stringRows(values), (r) => r.exact)) this.row('search_string', key).push(row.value, row.exact);
        break;
      case 'token':
        for (const row of tokenRows(values)) this.row('search_token', key).push(row.system, row.code, row.text, row.ofType);
        break;
      case 'date':
        for (const row of dateRows(values)) this.row('search_date', key).push(row.start, row.end);
        break;
      case 'reference': {
        const { refs, identifiers } = referenceRows(values);
        for (const row of refs) this.row('search_reference', key).push(row.targetType, row.targetId, row.url);
        // `:identifier` searches Reference.identifier: kept as token rows under `<param>:identifier`.
        for (const row of identifiers) this.row('search_token', entry.identifierKey).push(row.system, row.code, null, null);
        break;
      }
      case 'quantity':
        for (const row of quantityRows(values)) this.row('search_quantity', key).push(row.value, row.system, row.code, row.unit);
        break;
      case 'number':
        for (const v of numberRows(values)) this.row('search_number', key).push(v);
        break;
      case 'uri':
        for (const v of uriRows(values)) this.row('search_uri', key).push(v);
        break;
      case 'composite':
        this.addComposite(key, param, values.map((v) => v.value as Record<string, unknown>));
        break;
    }
  }

  private addComposite(key: number, param: SearchParam, items: Record<string, unknown>[]): void {
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
      for (const t of tokens) for (const v of seconds) this.row('search_composite', key).push(t.system, t.code, v[0], v[1], v[2], v[3], v[4], v[5]);
    }
  }
}

function dedupe<T>(rows: T[], key: (row: T) => string): T[] {
  if (rows.length < 2) return rows;
  const seen = new Set<string>();
  return rows.filter((r) => (seen.has(key(r)) ? false : (seen.add(key(r)), true)));
}

/** Largest multi-row INSERT (SQLite allows 32766 bound parameters; 64 rows x 12 columns stays far below). */
const MAX_ROWS = 64;
const TEXT_WIDTH = 3;

/**
 * Writes IndexRows with multi-row INSERTs (per-statement overhead dominates small rows: measured ~2 µs a row one
 * by one, under 1 µs in 64-row statements).
 */
export class IndexRowWriter {
  private readonly inserts = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  /** Insert `rows`, adding `ridOffset` to each row's batch-local rid. Mutates the rid slots of `rows`. */
  write(rows: IndexRows, ridOffset: number): void {
    for (const table of INDEX_TABLES) {
      const values = rows.tables[table];
      if (values) this.insert(table, 4 + COLUMNS[table], values, ridOffset, `INSERT INTO ${table} VALUES `);
    }
    if (rows.text.length) this.insert('search_text', TEXT_WIDTH, rows.text, ridOffset, 'INSERT INTO search_text (rowid, narrative, content) VALUES ');
  }

  private insert(table: string, width: number, values: unknown[], ridOffset: number, prefix: string): void {
    if (ridOffset !== 0) for (let i = 0; i < values.length; i += width) values[i] = (values[i] as number) + ridOffset;
    let rows = values.length / width;
    let offset = 0;
    while (rows > 0) {
      const n = Math.min(rows, MAX_ROWS);
      const key = `${table}:${n}`;
      let stmt = this.inserts.get(key);
      if (!stmt) {
        const tuple = `(${new Array(width).fill('?').join(', ')})`;
        stmt = this.db.prepare(prefix + new Array(n).fill(tuple).join(', '));
        this.inserts.set(key, stmt);
      }
      stmt.run(n === rows && offset === 0 ? values : values.slice(offset, offset + n * width));
      offset += n * width;
      rows -= n;
    }
  }
}
