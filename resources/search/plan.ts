// SQL planning: a parsed search request becomes one SQL query over resource_current and the index tables.
// Visibility (ARCHITECTURE.md): a resource is visible in sandbox S if it is in layer S, or in 'base' and S has no
// resource_current row for the same (type, id). Each layer is one UNION ALL branch; every criterion is an
// `r.id IN (index subquery)` on that branch's layer, which SQLite answers from the index tables' indexes.
import { dateRange, MAX_TIME, MIN_TIME } from './dates.ts';
import { normalizeText } from './values.ts';
import { parseReference } from './values.ts';
import type { Condition, SortKey } from './query.ts';
import { invalid, splitUnescaped, unescapeValue } from './query.ts';
import type { SearchParam } from './registry.ts';
import { modifierCodes, rememberCodeSet, rememberCodeText } from './code-sets.ts';
import type { TerminologyService } from '../terminology/service.ts';

export interface Frag {
  sql: string;
  params: unknown[];
}

export interface PlanContext {
  layers: readonly string[];
  /** Absolute base URL: references written as absolute URLs on this server are local. */
  baseUrl?: string;
  now: Date;
  /**
   * The integer keys of the index rows answering a (type, parameter code) pair (-1 when nothing was ever indexed);
   * an aliased parameter (SearchParam.alias) reads other parameters' rows, maybe only those of one target type.
   */
  keys(type: string, code: string): { keys: number[]; targetType?: string };
  /** Answers the token modifiers :in, :not-in, :below, :above and :text (its index is built on first use). */
  terminology: TerminologyService;
}

/** `param = ?` (or `param IN (...)`, plus the alias's target type) for a parameter's rows; `x` = table alias. */
function paramFilter(ctx: PlanContext, type: string, code: string, x = ''): Frag {
  const { keys, targetType } = ctx.keys(type, code);
  const sql = keys.length === 1 ? `${x}param = ?` : `${x}param IN (${keys.map(() => '?').join(', ')})`;
  return targetType ? { sql: `${sql} AND ${x}target_type = ?`, params: [...keys, targetType] } : { sql, params: keys };
}

const TABLE: Record<string, string> = {
  string: 'search_string', token: 'search_token', date: 'search_date', reference: 'search_reference',
  quantity: 'search_quantity', number: 'search_number', uri: 'search_uri', composite: 'search_composite',
};

const MAX_CHAR = '\u{10FFFF}';
const PREFIXES = new Set(['eq', 'ne', 'gt', 'lt', 'ge', 'le', 'sa', 'eb', 'ap']);

/**
 * The visible resources of `type` matching every condition: rows (sb, type, id, lu, rid[, k0, k1...]) where sb is
 * the layer holding the visible version and rid its resource_current rowid. `restrict` (SQL on `r`) narrows to
 * one candidate row: every condition is then a probe on that row, nothing is listed in full.
 */
export function visibleQuery(ctx: PlanContext, type: string, conditions: Condition[], sort: SortKey[] = [], restrict?: string): Frag {
  const branches: string[] = [];
  const params: unknown[] = [];
  const keyFrags = sort.map((k) => sortKeySql(ctx, type, k));
  ctx.layers.forEach((layer, i) => {
    const where: string[] = ['r.sandbox = ?', 'r.type = ?', 'r.deleted = 0'];
    if (restrict) where.push(restrict);
    // The sort-key subqueries come first in the SQL text, so their parameters do too.
    const p: unknown[] = [...keyFrags.flatMap((f) => f.params), layer, type];
    for (const upper of ctx.layers.slice(0, i)) {
      where.push('NOT EXISTS (SELECT 1 FROM resource_current s WHERE s.sandbox = ? AND s.type = r.type AND s.id = r.id)');
      p.push(upper);
    }
    // The most selective condition drives (an IN list SQLite iterates); the others are correlated EXISTS probes
    // through the owner index, so a broad condition (code=K over every Observation) is never materialized.
    const ordered = [...conditions].sort((a, b) => rank(a) - rank(b));
    for (const [n, c] of ordered.entries()) {
      const f = conditionSql(ctx, layer, type, c, n === 0 && !restrict);
      where.push(f.sql);
      p.push(...f.params);
    }
    const keys = keyFrags.map((f, n) => `${f.sql} AS k${n}`);
    branches.push(`SELECT r.sandbox AS sb, r.type AS type, r.id AS id, r.last_updated AS lu, r.rowid AS rid${keys.map((k) => ', ' + k).join('')} FROM resource_current r WHERE ${where.join(' AND ')}`);
    params.push(...p);
  });
  return { sql: branches.join(' UNION ALL '), params };
}

function sortKeySql(ctx: PlanContext, type: string, key: SortKey): Frag {
  if (key.name === '_id') return { sql: 'r.id', params: [] };
  if (key.name === '_lastUpdated') return { sql: 'r.last_updated', params: [] };
  const p = key.param!;
  const agg = key.descending ? 'max' : 'min';
  const column: Record<string, string> = {
    string: 'value', token: 'coalesce(code, text)', date: key.descending ? 'end' : 'start', reference: 'coalesce(target_type || \'/\' || target_id, url)',
    quantity: 'value', number: 'value', uri: 'value',
  };
  return {
    sql: `(SELECT ${agg}(${column[p.type]}) FROM ${TABLE[p.type]} x WHERE x.rid = r.rowid AND ${paramFilter(ctx, type, p.code, 'x.').sql})`,
    params: paramFilter(ctx, type, p.code).params,
  };
}

/** The ORDER BY of a visibleQuery result: sort keys (missing values last), then a deterministic tie-break. */
export function orderBy(sort: SortKey[]): string {
  const terms = sort.map((k, n) => {
    const col = k.name === '_id' ? 'id' : k.name === '_lastUpdated' ? 'lu' : `k${n}`;
    return `${col} IS NULL, ${col} ${k.descending ? 'DESC' : 'ASC'}`;
  });
  terms.push('type ASC', 'id ASC');
  return terms.join(', ');
}

/**
 * A criterion on one index table: when driving, the matching rows' rids (an IN list SQLite iterates through the
 * value index); otherwise a probe of this resource's rows through the primary key (rid, param).
 */
function inIndex(ctx: PlanContext, table: string, layer: string, type: string, param: string, predicate: string, params: unknown[], negate = false, driving = true): Frag {
  const key = paramFilter(ctx, type, param);
  const pred = predicate ? ` AND (${predicate})` : '';
  if (!driving || negate) {
    return {
      sql: `${negate ? 'NOT EXISTS' : 'EXISTS'} (SELECT 1 FROM ${table} NOT INDEXED WHERE rid = r.rowid AND ${key.sql}${pred})`,
      params: [...key.params, ...params],
    };
  }
  return { sql: `r.rowid IN (SELECT rid FROM ${table} WHERE sandbox = ? AND ${key.sql}${pred})`, params: [layer, ...key.params, ...params] };
}

/** Nesting depth of _has subqueries, for distinct aliases. */
let hasDepth = 0;

/** Lower = likely more selective, so a better driver. */
function rank(c: Condition): number {
  switch (c.kind) {
    case 'none': return -1;
    case 'id': return c.not ? 9 : 0;
    case 'compartment': return 1;
    case 'param':
      if (c.modifier === 'not') return 9;
      return ({ reference: 1, string: 2, uri: 2, token: 3, composite: 3, date: 5, quantity: 6, number: 6 } as Record<string, number>)[c.param.type] ?? 7;
    case 'chain': return 1.5;
    case 'has': return 4;
    case 'text': return 4;
    default: return 8;
  }
}

function conditionSql(ctx: PlanContext, layer: string, type: string, c: Condition, driving = true): Frag {
  switch (c.kind) {
    case 'none':
      return { sql: '0', params: [] };
    case 'id':
      return { sql: `r.id ${c.not ? 'NOT IN' : 'IN'} (${c.values.map(() => '?').join(', ')})`, params: c.values };
    case 'lastUpdated': {
      const ors = c.values.map((v) => dateCompare(ctx, c.name, v, 'lu'));
      return { sql: `(${ors.map((o) => o.sql).join(' OR ')})`, params: ors.flatMap((o) => o.params) };
    }
    case 'text': {
      const match = c.values.map(ftsQuery).join(' OR ');
      return { sql: 'r.rowid IN (SELECT rowid FROM search_text WHERE search_text MATCH ?)', params: [`{${c.column}} : (${match})`] };
    }
    case 'compartment':
      const keys = [...new Set(c.params.flatMap((p) => ctx.keys(type, p).keys))];
      return {
        sql: `r.rowid IN (SELECT rid FROM search_reference WHERE sandbox = ? AND param IN (${keys.map(() => '?').join(', ')}) AND target_id = ? AND target_type = ?)`,
        params: [layer, ...keys, c.targetId, c.targetType],
      };
    case 'missing': {
      const param = c.param.type === 'reference' ? c.param.code : c.param.code;
      return inIndex(ctx, TABLE[c.param.type], layer, type, param, '', [], c.missing, driving);
    }
    case 'chain': {
      const ors: Frag[] = c.targets.map((t) => {
        const inner = visibleQuery(ctx, t.type, t.conditions);
        return { sql: `(target_type = ? AND target_id IN (SELECT id FROM (${inner.sql})))`, params: [t.type, ...inner.params] };
      });
      return inIndex(ctx, 'search_reference', layer, type, c.param.code, ors.map((o) => o.sql).join(' OR '), ors.flatMap((o) => o.params), false, driving);
    }
    case 'has': {
      // Reverse chaining (3.1.1.5.13): a visible resource of sourceType referencing r and matching the conditions.
      const x = `h${hasDepth++}`;
      const layers = ctx.layers.map(() => '?').join(', ');
      const key = paramFilter(ctx, c.sourceType, c.param.code, `${x}.`);
      try {
        if (driving) {
          const inner = visibleQuery(ctx, c.sourceType, c.conditions);
          return {
            sql: `r.id IN (SELECT ${x}.target_id FROM search_reference ${x} WHERE ${x}.sandbox IN (${layers}) AND ${key.sql} AND ${x}.target_type = ? AND ${x}.rid IN (SELECT rid FROM (${inner.sql})))`,
            params: [...ctx.layers, ...key.params, type, ...inner.params],
          };
        }
        // Another condition drives: probe this resource's referrers one by one (never list every match).
        const inner = visibleQuery(ctx, c.sourceType, c.conditions, [], `r.rowid = ${x}.rid`);
        return {
          sql: `EXISTS (SELECT 1 FROM search_reference ${x} WHERE ${x}.sandbox IN (${layers}) AND ${key.sql} AND ${x}.target_id = r.id AND ${x}.target_type = ? AND EXISTS (${inner.sql}))`,
          params: [...ctx.layers, ...key.params, type, ...inner.params],
        };
      } finally {
        hasDepth--;
      }
    }
    case 'param':
      return paramSql(ctx, layer, type, c.param, c.modifier, c.values, c.name, driving);
  }
}

function paramSql(ctx: PlanContext, layer: string, type: string, param: SearchParam, modifier: string | undefined, values: string[], name: string, driving: boolean): Frag {
  const ors = values.map((v) => valuePredicate(ctx, param, modifier, v, name));
  const predicate = ors.map((o) => `(${o.sql})`).join(' OR ');
  const params = ors.flatMap((o) => o.params);
  if (modifier === 'identifier') return inIndex(ctx, 'search_token', layer, type, `${param.code}:identifier`, predicate, params, false, driving);
  // :not is "no value matches" (FHIR R4 3.1.1.4.10), so resources without the element match too.
  return inIndex(ctx, TABLE[param.type], layer, type, param.code, predicate, params, modifier === 'not' || modifier === 'not-in', driving);
}

function valuePredicate(ctx: PlanContext, param: SearchParam, modifier: string | undefined, value: string, name: string): Frag {
  switch (param.type) {
    case 'string':
      return stringPredicate(modifier, value, 'value', 'exact');
    case 'token':
      if (modifier === 'identifier') return tokenPredicate(undefined, value);
      if (modifier === 'in' || modifier === 'not-in' || modifier === 'below' || modifier === 'above') {
        return codeSetPredicate(modifierCodes(ctx.terminology, modifier, unescapeValue(value), (m) => invalid(name, m)));
      }
      if (modifier === 'text') return tokenTextPredicate(ctx, value);
      return tokenPredicate(modifier, value);
    case 'date':
      return dateCompare(ctx, name, value, 'range');
    case 'number':
      return numberCompare(name, value, 'value');
    case 'quantity':
      return quantityPredicate(name, value, 'value', 'system', 'code', 'unit');
    case 'uri':
      return uriPredicate(modifier, unescapeValue(value));
    case 'reference':
      if (modifier === 'identifier') return tokenPredicate(undefined, value);
      return referencePredicate(ctx, param, modifier, unescapeValue(value), name);
    case 'composite':
      return compositePredicate(ctx, param, value, name);
    default:
      throw invalid(name, `${param.type} parameters are not searchable`);
  }
}

function stringPredicate(modifier: string | undefined, raw: string, col: string, exactCol: string): Frag {
  const value = unescapeValue(raw);
  if (modifier === 'exact') return { sql: `${exactCol} = ?`, params: [value] };
  const norm = normalizeText(value);
  if (modifier === 'contains') return { sql: `${col} LIKE ? ESCAPE '\\'`, params: [`%${norm.replace(/[\\%_]/g, (m) => '\\' + m)}%`] };
  return { sql: `${col} >= ? AND ${col} < ?`, params: [norm, norm + MAX_CHAR] };
}

/** `:text`: the stored text (CodeableConcept.text, Coding.display), or the code's display and synonyms in the terminology. */
function tokenTextPredicate(ctx: PlanContext, raw: string): Frag {
  const norm = normalizeText(unescapeValue(raw));
  const id = rememberCodeText(ctx.terminology, unescapeValue(raw));
  return { sql: '(text >= ? AND text < ?) OR search_in_codes(?, system, code)', params: [norm, norm + MAX_CHAR, id] };
}

function tokenPredicate(modifier: string | undefined, raw: string): Frag {
  if (modifier === 'of-type') {
    const parts = splitUnescaped(raw, '|').map(unescapeValue);
    if (parts.length !== 3) throw invalid('identifier:of-type', `'${raw}' is not system|code|value`);
    return { sql: 'of_type = ?', params: [parts.join('|')] };
  }
  const parts = splitUnescaped(raw, '|').map(unescapeValue);
  if (parts.length === 1) return { sql: 'code = ?', params: [parts[0]] };
  const [system, code] = parts;
  if (system === '' ) return { sql: 'system IS NULL AND code = ?', params: [code] };
  if (code === '') return { sql: 'system = ?', params: [system] };
  return { sql: 'code = ? AND system = ?', params: [code, system] };
}

/** Rows whose system|code is in a set: an indexed `code IN (...)` when the set is small, else a per-row test. */
function codeSetPredicate(codes: Set<string>): Frag {
  if (codes.size === 0) return { sql: '0', params: [] };
  const id = rememberCodeSet(codes);
  if (codes.size <= 200) {
    const bare = [...new Set([...codes].map((c) => c.slice(c.indexOf('|') + 1)))];
    return { sql: `code IN (${bare.map(() => '?').join(', ')}) AND search_in_codes(?, system, code)`, params: [...bare, id] };
  }
  return { sql: 'search_in_codes(?, system, code)', params: [id] };
}

function splitPrefix(name: string, value: string, allowed = PREFIXES): [string, string] {
  const m = /^([a-z]{2})(.*)$/.exec(value);
  if (m) {
    if (!allowed.has(m[1])) throw invalid(name, `unknown prefix '${m[1]}' in '${value}'`);
    return [m[1], m[2]];
  }
  return ['eq', value];
}

/** Date comparison per FHIR R4 3.1.1.4.6 and the prefix table of 3.1.1.4.1; `range` = search_date columns. */
function dateCompare(ctx: PlanContext, name: string, raw: string, target: 'range' | 'lu'): Frag {
  // An unencoded '+' of a time-zone offset arrives as a space.
  const [prefix, text] = splitPrefix(name, raw.trim().replace(/ (\d{2}:?\d{2})$/, '+$1'));
  const range = dateRange(text);
  if (!range) throw invalid(name, `'${raw}' is not a valid date`);
  const { start: ps, end: pe } = range;
  if (target === 'lu') {
    // last_updated is an ISO instant string: compare at millisecond precision.
    const s = new Date(ps).toISOString();
    const e = new Date(pe).toISOString();
    const map: Record<string, Frag> = {
      eq: { sql: 'r.last_updated >= ? AND r.last_updated <= ?', params: [s, e] },
      ne: { sql: 'NOT (r.last_updated >= ? AND r.last_updated <= ?)', params: [s, e] },
      gt: { sql: 'r.last_updated > ?', params: [e] }, sa: { sql: 'r.last_updated > ?', params: [e] },
      lt: { sql: 'r.last_updated < ?', params: [s] }, eb: { sql: 'r.last_updated < ?', params: [s] },
      ge: { sql: 'r.last_updated >= ?', params: [s] }, le: { sql: 'r.last_updated <= ?', params: [e] },
    };
    if (prefix === 'ap') {
      const slack = approxSlack(ctx, ps, pe);
      return { sql: 'r.last_updated >= ? AND r.last_updated <= ?', params: [iso(ps - slack), iso(pe + slack)] };
    }
    return map[prefix];
  }
  switch (prefix) {
    case 'eq': return { sql: 'start >= ? AND end <= ?', params: [ps, pe] };
    case 'ne': return { sql: 'NOT (start >= ? AND end <= ?)', params: [ps, pe] };
    case 'gt': return { sql: 'end > ?', params: [pe] };
    case 'lt': return { sql: 'start < ?', params: [ps] };
    case 'ge': return { sql: 'end > ? OR (start >= ? AND end <= ?)', params: [pe, ps, pe] };
    case 'le': return { sql: 'start < ? OR (start >= ? AND end <= ?)', params: [ps, ps, pe] };
    case 'sa': return { sql: 'start > ?', params: [pe] };
    case 'eb': return { sql: 'end < ?', params: [ps] };
    default: {
      const slack = approxSlack(ctx, ps, pe);
      return { sql: 'start <= ? AND end >= ?', params: [pe + slack, ps - slack] };
    }
  }
}

const iso = (ms: number) => new Date(Math.max(MIN_TIME, Math.min(MAX_TIME, ms))).toISOString();

/** `ap`: within 10% of the distance between the value and now (at least a day), per the spec's suggestion. */
function approxSlack(ctx: PlanContext, ps: number, pe: number): number {
  const now = ctx.now.getTime();
  const gap = Math.abs(now - (ps + pe) / 2);
  return Math.max(0.1 * gap, 86400000);
}

function parseNumber(name: string, text: string): { value: number; low: number; high: number } {
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text)) throw invalid(name, `'${text}' is not a number`);
  const value = Number(text);
  // Implicit precision: "100" stands for [99.5, 100.5), "100.0" for [99.95, 100.05) (3.1.1.4.2).
  const mantissa = text.replace(/^[+-]/, '').split(/[eE]/)[0];
  const exponent = /[eE]/.test(text) ? Number(text.split(/[eE]/)[1]) : 0;
  const decimals = mantissa.includes('.') ? mantissa.split('.')[1].length : 0;
  const half = 0.5 * Math.pow(10, exponent - decimals);
  return { value, low: value - half, high: value + half };
}

function numberCompare(name: string, raw: string, col: string): Frag {
  const [prefix, text] = splitPrefix(name, raw.trim());
  const { value, low, high } = parseNumber(name, text);
  switch (prefix) {
    case 'eq': return { sql: `${col} >= ? AND ${col} < ?`, params: [low, high] };
    case 'ne': return { sql: `NOT (${col} >= ? AND ${col} < ?)`, params: [low, high] };
    case 'gt': case 'sa': return { sql: `${col} > ?`, params: [value] };
    case 'lt': case 'eb': return { sql: `${col} < ?`, params: [value] };
    case 'ge': return { sql: `${col} >= ?`, params: [value] };
    case 'le': return { sql: `${col} <= ?`, params: [value] };
    default: {
      const slack = Math.abs(value) * 0.1;
      return { sql: `${col} >= ? AND ${col} <= ?`, params: [value - slack, value + slack] };
    }
  }
}

/** `[prefix]number|system|code` or `number||unit` (3.1.1.4.4). */
function quantityPredicate(name: string, raw: string, valueCol: string, systemCol: string, codeCol: string, unitCol: string | undefined): Frag {
  const parts = splitUnescaped(raw, '|').map(unescapeValue);
  if (parts.length !== 1 && parts.length !== 3) throw invalid(name, `'${raw}' is not number|system|code`);
  const num = numberCompare(name, parts[0], valueCol);
  const sql = [num.sql];
  const params = [...num.params];
  if (parts.length === 3) {
    const [, system, code] = parts;
    if (system) { sql.push(`${systemCol} = ?`); params.push(system); }
    if (code) {
      if (!system && unitCol) { sql.push(`(${codeCol} = ? OR ${unitCol} = ?)`); params.push(code, code); } else { sql.push(`${codeCol} = ?`); params.push(code); }
    }
  }
  return { sql: sql.map((s) => `(${s})`).join(' AND '), params };
}

function uriPredicate(modifier: string | undefined, value: string): Frag {
  if (modifier === 'below') return { sql: 'value >= ? AND value < ?', params: [value, value + MAX_CHAR] };
  if (modifier === 'above') return { sql: 'substr(?, 1, length(value)) = value', params: [value] };
  return { sql: 'value = ?', params: [value] };
}

/** `id`, `Type/id`, an absolute URL (local when under our base), with an optional `:Type` modifier (3.1.1.4.9). */
function referencePredicate(ctx: PlanContext, param: SearchParam, modifier: string | undefined, value: string, name: string): Frag {
  let local = value;
  if (ctx.baseUrl && value.startsWith(ctx.baseUrl + '/')) local = value.slice(ctx.baseUrl.length + 1);
  if (/^(https?:|urn:)/.test(local)) return { sql: 'url = ?', params: [value.split('|')[0]] };
  const parsed = parseReference(local);
  if (parsed.targetType && parsed.targetId) {
    if (modifier && modifier !== parsed.targetType) throw invalid(name, `'${value}' is not a ${modifier}`);
    return { sql: 'target_id = ? AND target_type = ?', params: [parsed.targetId, parsed.targetType] };
  }
  if (!/^[A-Za-z0-9\-.]{1,64}$/.test(local)) throw invalid(name, `'${value}' is not a reference`);
  if (modifier) return { sql: 'target_id = ? AND target_type = ?', params: [local, modifier] };
  return { sql: 'target_id = ?', params: [local] };
}

/** `token$value` for two-component composites (3.1.1.4.8). */
function compositePredicate(ctx: PlanContext, param: SearchParam, raw: string, name: string): Frag {
  const parts = splitUnescaped(raw, '$');
  if (parts.length !== 2) throw invalid(name, `'${raw}' needs ${param.components!.length} components separated by '$'`);
  const first = tokenPredicate(undefined, parts[0]);
  const firstSql = first.sql.replace(/\bcode\b/g, 'code1').replace(/\bsystem\b/g, 'system1');
  const second = param.components![1].param;
  let f: Frag;
  switch (second.type) {
    case 'token': {
      const t = tokenPredicate(undefined, parts[1]);
      f = { sql: t.sql.replace(/\bcode\b/g, 'code2').replace(/\bsystem\b/g, 'system2'), params: t.params };
      break;
    }
    case 'quantity': f = quantityPredicate(name, parts[1], 'number2', 'system2', 'code2', undefined); break;
    case 'number': f = numberCompare(name, parts[1], 'number2'); break;
    case 'date': {
      const d = dateCompare(ctx, name, parts[1], 'range');
      f = { sql: d.sql.replace(/\bstart\b/g, 'start2').replace(/\bend\b/g, 'end2'), params: d.params };
      break;
    }
    case 'string': f = stringPredicate(undefined, parts[1], 'text2', 'text2'); break;
    case 'reference': {
      const parsed = parseReference(unescapeValue(parts[1]));
      f = parsed.targetId ? { sql: 'code2 = ? AND system2 = ?', params: [parsed.targetId, parsed.targetType] } : { sql: 'code2 = ?', params: [unescapeValue(parts[1])] };
      break;
    }
    default: f = { sql: 'text2 = ?', params: [unescapeValue(parts[1])] };
  }
  return { sql: `(${firstSql}) AND (${f.sql})`, params: [...first.params, ...f.params] };
}

/** A user's words as an FTS5 query: each word a quoted prefix term, all required. */
function ftsQuery(value: string): string {
  // FTS5 ends a quoted string at a NUL ("unterminated string"); control characters separate words for its tokenizer anyway.
  // eslint-disable-next-line no-control-regex
  const words = unescapeValue(value).replace(/[\u0000-\u001f]/g, ' ').split(/\s+/).map((w) => w.replace(/"/g, '')).filter(Boolean);
  if (words.length === 0) return '""';
  return `(${words.map((w) => `"${w}"`).join(' AND ')})`;
}
