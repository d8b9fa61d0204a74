// Write-time indexing: inside the resource write's transaction, replace the resource's rows in every index table
// (FHIR search sees the latest write at once; there is no result cache).
import type Database from 'better-sqlite3';
import type { Resource } from '@medplum/fhirtypes';
import type { ResourceIndexer } from '../storage/store.ts';
import type { SearchParam, SearchParameterRegistry } from './registry.ts';
import { INDEX_SCHEMA, INDEX_TABLES } from './index-tables.ts';
import { dateRows, numberRows, quantityRows, referenceRows, stringRows, tokenRows, uriRows } from './values.ts';
import { documentText } from './text.ts';

/** Parameters answered from resource_current (or not by an index table at all). */
const NOT_INDEXED = new Set(['_id', '_lastUpdated']);

type Statements = ReturnType<typeof prepare>;

function prepare(db: Database.Database) {
  const del = (table: string) => db.prepare(`DELETE FROM ${table} WHERE sandbox = ? AND type = ? AND id = ?`);
  return {
    deletes: INDEX_TABLES.map(del),
    clears: INDEX_TABLES.map((t) => db.prepare(`DELETE FROM ${t} WHERE sandbox = ?`)),
    string: db.prepare('INSERT INTO search_string VALUES (?, ?, ?, ?, ?, ?)'),
    token: db.prepare('INSERT INTO search_token VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    date: db.prepare('INSERT INTO search_date VALUES (?, ?, ?, ?, ?, ?)'),
    reference: db.prepare('INSERT INTO search_reference VALUES (?, ?, ?, ?, ?, ?, ?)'),
    quantity: db.prepare('INSERT INTO search_quantity VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    number: db.prepare('INSERT INTO search_number VALUES (?, ?, ?, ?, ?)'),
    uri: db.prepare('INSERT INTO search_uri VALUES (?, ?, ?, ?, ?)'),
    composite: db.prepare('INSERT INTO search_composite VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'),
    versions: db.prepare<[string, string, string], { n: number }>('SELECT count(*) AS n FROM resource_history WHERE sandbox = ? AND type = ? AND id = ?'),
    textOwner: db.prepare<[string, string, string], { rowid: number }>('SELECT rowid FROM search_text_owner WHERE sandbox = ? AND type = ? AND id = ?'),
    textOwnerInsert: db.prepare('INSERT INTO search_text_owner (sandbox, type, id) VALUES (?, ?, ?)'),
    textOwnerDelete: db.prepare('DELETE FROM search_text_owner WHERE rowid = ?'),
    textInsert: db.prepare('INSERT INTO search_text (rowid, narrative, content) VALUES (?, ?, ?)'),
    textDelete: db.prepare('DELETE FROM search_text WHERE rowid = ?'),
    textClear: db.prepare('DELETE FROM search_text WHERE rowid IN (SELECT rowid FROM search_text_owner WHERE sandbox = ?)'),
    textOwnerClear: db.prepare('DELETE FROM search_text_owner WHERE sandbox = ?'),
  };
}

export function createIndexer(registry: SearchParameterRegistry): ResourceIndexer {
  const statements = new WeakMap<Database.Database, Statements>();
  const paramsByType = new Map<string, SearchParam[]>();
  const stmtsFor = (db: Database.Database) => {
    let s = statements.get(db);
    if (!s) statements.set(db, (s = prepare(db)));
    return s;
  };
  const params = (type: string) => {
    let list = paramsByType.get(type);
    if (!list) paramsByType.set(type, (list = registry.forType(type).filter((p) => !NOT_INDEXED.has(p.code))));
    return list;
  };

  return {
    schema: INDEX_SCHEMA,
    write(db, sandbox, type, id, resource) {
      const s = stmtsFor(db);
      // The store writes the history row first: a single version means the resource is new in this layer and
      // has no index rows to remove (the common case while seeding).
      if (s.versions.get(sandbox, type, id)!.n > 1) {
        for (const d of s.deletes) d.run(sandbox, type, id);
        const owner = s.textOwner.get(sandbox, type, id);
        if (owner) {
          s.textDelete.run(owner.rowid);
          s.textOwnerDelete.run(owner.rowid);
        }
      }
      if (!resource) return;
      const r = resource as unknown as Record<string, unknown>;
      for (const param of params(type)) indexParam(s, sandbox, type, id, param, r);
      const text = documentText(resource);
      if (text) {
        const rowid = Number(s.textOwnerInsert.run(sandbox, type, id).lastInsertRowid);
        s.textInsert.run(rowid, text.narrative, text.content);
      }
    },
    clearSandbox(db, sandbox) {
      const s = stmtsFor(db);
      for (const c of s.clears) c.run(sandbox);
      s.textClear.run(sandbox);
      s.textOwnerClear.run(sandbox);
    },
  };
}

function indexParam(s: Statements, sandbox: string, type: string, id: string, param: SearchParam, resource: Record<string, unknown>): void {
  const values = param.extract(resource);
  if (values.length === 0) return;
  const code = param.code;
  switch (param.type) {
    case 'string':
      for (const row of dedupe(stringRows(values), (r) => r.exact)) s.string.run(sandbox, type, id, code, row.value, row.exact);
      break;
    case 'token':
      for (const row of tokenRows(values)) s.token.run(sandbox, type, id, code, row.system, row.code, row.text, row.ofType);
      break;
    case 'date':
      for (const row of dateRows(values)) s.date.run(sandbox, type, id, code, row.start, row.end);
      break;
    case 'reference': {
      const { refs, identifiers } = referenceRows(values);
      for (const row of refs) s.reference.run(sandbox, type, id, code, row.targetType, row.targetId, row.url);
      // `:identifier` searches Reference.identifier: kept as token rows under `<param>:identifier`.
      for (const row of identifiers) s.token.run(sandbox, type, id, `${code}:identifier`, row.system, row.code, null, null);
      break;
    }
    case 'quantity':
      for (const row of quantityRows(values)) s.quantity.run(sandbox, type, id, code, row.value, row.system, row.code, row.unit);
      break;
    case 'number':
      for (const v of numberRows(values)) s.number.run(sandbox, type, id, code, v);
      break;
    case 'uri':
      for (const v of uriRows(values)) s.uri.run(sandbox, type, id, code, v);
      break;
    case 'composite':
      indexComposite(s, sandbox, type, id, param, values.map((v) => v.value as Record<string, unknown>));
      break;
  }
}

function indexComposite(s: Statements, sandbox: string, type: string, id: string, param: SearchParam, items: Record<string, unknown>[]): void {
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
    for (const t of tokens) for (const v of seconds) s.composite.run(sandbox, type, id, param.code, t.system, t.code, ...v);
  }
}

function dedupe<T>(rows: T[], key: (row: T) => string): T[] {
  if (rows.length < 2) return rows;
  const seen = new Set<string>();
  return rows.filter((r) => (seen.has(key(r)) ? false : (seen.add(key(r)), true)));
}
