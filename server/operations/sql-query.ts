// $sqlquery-run: read-only SQL for agents over ViewDefinition tables.
//   POST [base]/$sqlquery-run   Parameters: query (SQL text), view* (an inline ViewDefinition as `resource`, or a
//                               reference to a stored one), _format json|ndjson|csv, _limit (rows), _timeout (ms)
// The name is the one the SQL on FHIR v2 draft gives its SQL query operation ("$sqlquery-run", run a SQLQuery
// Library over ViewDefinition tables); we take the query text and the views directly as parameters.
//
// Each call materializes the views' rows (over this sandbox's data, or one patient's with `patient`) into a fresh
// in-memory SQLite database, checks the statement here (one SELECT/WITH, read-only, no ATTACH/PRAGMA) and runs it in
// a child process over a read-only copy of that database with a row limit; on timeout the child is killed
// (better-sqlite3 has no interrupt, and a worker thread cannot be stopped while SQLite runs native code).
// Materialization runs on the main thread in keyset pages with a turn of the event loop between pages, so other
// requests are served while a large population is read; the time limit covers materialization and query together.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { FhirResponse } from '../fhir-request.ts';
import type { Operation } from './registry.ts';
import { badRequest, FhirError, invalidParameter, issue, tooManyRequests } from '../../resources/outcome.ts';
import { integerParameter } from '../../resources/integer-parameter.ts';
import { compileView, type ColumnInfo, type CompiledView } from '../../resources/views/compile-view.ts';
import { runView } from '../../resources/views/run-view.ts';
import { CONTENT_TYPES, formatRows, parseRowFormat, type RowFormat } from '../../resources/views/row-format.ts';
import { operationParameters, primitive, resolveView } from './view-run.ts';
import { localTarget } from '../../resources/references.ts';
import { compartmentParams } from '../../resources/search/compartments.ts';
import type { Resource } from '@medplum/fhirtypes';
import type { FhirRequest } from '../fhir-request.ts';

export const SQL_LIMITS = {
  defaultRows: 1000,
  maxRows: 10000,
  defaultTimeoutMs: 5000,
  maxTimeoutMs: 10000,
  /** Queries materializing or running at once; more get 429 (2 cores). */
  maxConcurrent: 2,
  /** Resources read and turned into rows per turn of the event loop. */
  pageSize: 500,
};

const CHILD = fileURLToPath(new URL('../../resources/views/sql-sandbox-child.mjs', import.meta.url));
const TABLE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,62}$/;
let running = 0;

const tooCostly = (diagnostics: string) => new FhirError(422, [issue('error', 'too-costly', diagnostics)]);

/** SQLite column affinity for a view column's FHIR type. */
function sqlType(column: ColumnInfo): string {
  if (column.collection) return 'TEXT';
  switch (column.type) {
    case 'integer': case 'positiveInt': case 'unsignedInt': case 'integer64': case 'boolean': return 'INTEGER';
    case 'decimal': return 'REAL';
    default: return 'TEXT';
  }
}

function sqlValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'object') return JSON.stringify(value);
  return value;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Strip comments and string literals so keyword checks see only SQL tokens. */
function sqlTokens(sql: string): string {
  return sql
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?(\*\/|$)/g, ' ')
    .replace(/'(?:[^']|'')*'/g, "''");
}

/** One SELECT (or WITH ... SELECT / VALUES) and nothing that reaches outside the copy of the views. */
export function assertReadOnlySql(db: Database.Database, sql: string): void {
  const tokens = sqlTokens(sql);
  if (!/^\s*(select|with|values)\b/i.test(tokens)) throw badRequest('Only a single SELECT (or WITH ... SELECT) query is allowed', ['query']);
  const forbidden = /\b(attach|detach|pragma\w*|vacuum|load_extension|readfile|writefile)\b/i.exec(tokens);
  if (forbidden) throw badRequest(`'${forbidden[1]}' is not allowed in a query`, ['query']);
  let stmt: Database.Statement;
  try {
    stmt = db.prepare(sql);
  } catch (err) {
    throw badRequest(`SQL error: ${(err as Error).message}`, ['query']);
  }
  if (!stmt.reader || !stmt.readonly) throw badRequest('Only a read-only query that returns rows is allowed', ['query']);
}

/** Where a view's resources come from: pages of a type (all visible, or one patient's). */
export type ResourcePages = (type: string) => Iterable<Resource[]>;

/** An in-memory database with one empty table per view (named by the view's `name`, one column per view column). */
export function viewTables(views: CompiledViewWithName[]): Database.Database {
  const db = new Database(':memory:');
  for (const { name, view } of views) {
    db.exec(`CREATE TABLE ${quoteIdent(name)} (${view.columns.map((c) => `${quoteIdent(c.name)} ${sqlType(c)}`).join(', ')})`);
  }
  return db;
}

/**
 * Fills the view tables of `db` page by page: after each page the event loop gets a turn (setImmediate), so other
 * requests run meanwhile. Past `deadline` (epoch ms) it stops with the 422 too-costly outcome.
 */
export async function materializeViews(db: Database.Database, views: CompiledViewWithName[], pagesOf: ResourcePages, deadline = Infinity): Promise<void> {
  for (const { name, view } of views) {
    const insert = db.prepare(`INSERT INTO ${quoteIdent(name)} VALUES (${view.columns.map(() => '?').join(', ')})`);
    const insertPage = db.transaction((page: Resource[]) => {
      for (const row of runView(view, page)) insert.run(view.columns.map((c) => sqlValue(row[c.name])));
    });
    for (const page of pagesOf(view.resource)) {
      insertPage(page);
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (Date.now() > deadline) throw tooCostly('Building the view tables took longer than the time limit; restrict the views (where, patient) or raise _timeout');
    }
  }
}

/** Every visible resource of a type, in keyset pages (Repository.scanPage: no cursor stays open between pages). */
export function* scanPages(req: FhirRequest, type: string, pageSize = SQL_LIMITS.pageSize): Generator<Resource[]> {
  let after: string | undefined;
  for (;;) {
    const page = req.repo.scanPage(type, after, pageSize);
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    after = page[page.length - 1].id;
  }
}

/**
 * One patient's resources of a type, found through the search index: the Patient itself, or the resources whose
 * Patient-compartment parameters (FHIR R4 CompartmentDefinition "patient") point at it. Types outside the compartment
 * give nothing.
 */
export function* patientPages(req: FhirRequest, patientId: string, type: string, pageSize = SQL_LIMITS.pageSize): Generator<Resource[]> {
  if (type === 'Patient') {
    const patient = req.repo.readLive('Patient', patientId);
    if (patient) yield [patient];
    return;
  }
  const ids = new Set<string>();
  for (const param of compartmentParams('Patient', type)) {
    for (const id of req.context.search.match(req.repo, type, [[param, `Patient/${patientId}`]])) ids.add(id);
  }
  const all = [...ids].sort();
  for (let i = 0; i < all.length; i += pageSize) {
    const page = all.slice(i, i + pageSize).map((id) => req.repo.readLive(type, id)).filter((r): r is Resource => r !== undefined);
    if (page.length > 0) yield page;
  }
}

export interface CompiledViewWithName {
  name: string;
  view: CompiledView;
}

interface ChildResult {
  ok: boolean;
  columns?: string[];
  rows?: unknown[][];
  truncated?: boolean;
  error?: string;
}

function runInChild(image: Buffer, sql: string, maxRows: number, timeoutMs: number): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [], { execArgv: ['--max-old-space-size=512'], serialization: 'advanced', stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(() => reject(tooCostly(`The query ran past the time limit and was stopped`)));
    }, Math.max(1, timeoutMs));
    child.once('message', (result) => finish(() => resolve(result as ChildResult)));
    child.once('error', (err) => finish(() => reject(tooCostly(`The query could not run: ${err.message}`))));
    child.once('exit', (code, signal) => finish(() => reject(tooCostly(`The query process ended (${signal ?? code}) before answering; it may have used too much memory`))));
    child.send({ image, sql, maxRows });
  });
}

function formatResult(result: ChildResult, format: RowFormat): FhirResponse {
  const names = result.columns ?? [];
  const columns: ColumnInfo[] = names.map((name) => ({ name, collection: false }));
  const rows = (result.rows ?? []).map((values) => Object.fromEntries(names.map((n, i) => [n, values[i] ?? null])));
  return { status: 200, body: [...formatRows(rows, columns, format)].join(''), headers: { 'content-type': CONTENT_TYPES[format] } };
}

export const sqlQueryRunOperation: Operation = {
  name: 'sqlquery-run',
  levels: ['system'],
  readOnly: true,
  postOnly: true,
  bundleEntry: false,
  documentation: 'Run one read-only SQL SELECT over ViewDefinition tables materialized from this sandbox (row and time limits)',
  handler(req) {
    const parts = operationParameters(req);
    const one = (name: string) => parts.filter((p) => p.name === name).at(-1);
    const sql = primitive(one('query'));
    if (typeof sql !== 'string' || sql.trim() === '') throw badRequest('$sqlquery-run needs a query parameter with the SQL text', ['query']);

    const format = parseRowFormat(primitive(one('_format'))?.toString());
    if (!format) throw invalidParameter(`_format '${String(primitive(one('_format')))}' is not one of json, ndjson, csv`, ['_format']);
    const maxRows = boundedInt(primitive(one('_limit')), SQL_LIMITS.defaultRows, SQL_LIMITS.maxRows, '_limit');
    const timeoutMs = boundedInt(primitive(one('_timeout')), SQL_LIMITS.defaultTimeoutMs, SQL_LIMITS.maxTimeoutMs, '_timeout');

    const views: CompiledViewWithName[] = [];
    for (const part of parts.filter((p) => p.name === 'view' || p.name === 'viewResource' || p.name === 'viewReference')) {
      const reference = part.resource ? undefined : primitive(part);
      const definition = resolveView(req, part.resource, reference === undefined ? undefined : String(reference), '$sqlquery-run view') as { name?: unknown };
      const name = definition.name;
      if (typeof name !== 'string' || !TABLE_NAME.test(name)) {
        throw badRequest('Each view needs a `name` of letters, digits and _ (it becomes the table name)', ['view']);
      }
      // SQLite reserves every name starting sqlite_ for its own tables (CREATE TABLE fails on them).
      if (/^sqlite_/i.test(name)) throw badRequest(`View name '${name}' is reserved by SQLite (names starting sqlite_)`, ['view']);
      if (views.some((v) => v.name.toLowerCase() === name.toLowerCase())) throw badRequest(`Two views are named '${name}'`, ['view']);
      views.push({ name, view: compileView(definition) });
    }
    if (views.length === 0) throw badRequest('$sqlquery-run needs at least one view parameter (the tables to query)', ['view']);
    const patient = primitive(one('patient'));
    const patientId = patient === undefined ? undefined : localTarget(String(patient), req.baseUrl)?.id ?? String(patient);
    if (patientId !== undefined && !/^[A-Za-z0-9\-.]{1,64}$/.test(patientId)) throw invalidParameter(`patient '${String(patient)}' is not a Patient reference`, ['patient']);
    if (running >= SQL_LIMITS.maxConcurrent) throw tooManyRequests('Too many SQL queries are running; retry shortly');

    const deadline = Date.now() + timeoutMs;
    const pagesOf: ResourcePages = patientId === undefined ? (type) => scanPages(req, type) : (type) => patientPages(req, patientId, type);
    // The statement is checked against the empty tables first, so bad SQL is a 400 before any resource is read.
    const db = viewTables(views);
    try {
      assertReadOnlySql(db, sql);
    } catch (err) {
      db.close();
      throw err;
    }
    running++;
    const deferred = (async () => {
      try {
        let image: Buffer;
        try {
          await materializeViews(db, views, pagesOf, deadline);
          image = db.serialize();
        } finally {
          db.close();
        }
        const result = await runInChild(image, sql, maxRows, deadline - Date.now());
        if (!result.ok) throw badRequest(`SQL error: ${result.error}`, ['query']);
        if (result.truncated) throw tooCostly(`The result has more than ${maxRows} rows; aggregate, add a LIMIT, or raise _limit (at most ${SQL_LIMITS.maxRows})`);
        return formatResult(result, format);
      } finally {
        running--;
      }
    })();
    return { status: 200, deferred };
  },
};

function boundedInt(raw: string | number | boolean | undefined, fallback: number, max: number, name: string): number {
  return integerParameter(name, raw, { min: 1, max }) ?? fallback;
}

/** The $sqlquery-run Parameters body for a sql_query tool call: POST it to [base]/$sqlquery-run. */
export function sqlQueryParameters(args: { query: string; views: unknown[]; format?: string }): import('@medplum/fhirtypes').Parameters {
  return {
    resourceType: 'Parameters',
    parameter: [
      { name: 'query', valueString: args.query },
      ...args.views.map((view) => ({ name: 'view', resource: view as import('@medplum/fhirtypes').Resource })),
      ...(args.format ? [{ name: '_format', valueCode: args.format }] : []),
    ],
  };
}
