// Search parsing: a pure function from the query string parameters to a plain search request (FHIR R4 3.1.1
// "Search"). Modifiers and prefixes are lookup tables; malformed input is a 400 naming the parameter, unknown
// parameters are collected so the caller can report them (or refuse them under `Prefer: handling=strict`).
import type { OperationOutcomeIssue } from '@medplum/fhirtypes';
import { FhirError, issue } from '../outcome.ts';
import { RESULT_PARAMETERS, type SearchParam, type SearchParameterRegistry } from './registry.ts';
import { isKnownResourceType } from '../validation/validate.ts';

export type Condition =
  | { kind: 'id'; values: string[]; not: boolean }
  | { kind: 'lastUpdated'; values: string[]; name: string }
  | { kind: 'param'; param: SearchParam; modifier?: string; values: string[]; name: string }
  | { kind: 'missing'; param: SearchParam; missing: boolean }
  | { kind: 'chain'; param: SearchParam; targets: { type: string; conditions: Condition[] }[] }
  | { kind: 'has'; sourceType: string; param: SearchParam; conditions: Condition[] }
  | { kind: 'text'; column: 'narrative' | 'content'; values: string[]; name: string }
  | { kind: 'compartment'; params: string[]; targetType: string; targetId: string }
  | { kind: 'none' };

export interface IncludeSpec {
  reverse: boolean;
  iterate: boolean;
  /** '*' = every reference parameter of sourceType ('*' there too: any type). */
  sourceType: string;
  param: string;
  targetType?: string;
}

export interface SortKey {
  name: string;
  descending: boolean;
  param?: SearchParam;
}

export interface SearchRequest {
  types: string[] | undefined;
  conditions: Condition[];
  sort: SortKey[];
  include: IncludeSpec[];
  summary?: 'true' | 'count' | 'data' | 'text' | 'false';
  elements?: string[];
  total: 'accurate' | 'none' | 'estimate';
  /** Parameters ignored because unknown or unsupported (reported in the Bundle, or refused when strict). */
  ignored: OperationOutcomeIssue[];
}

const MODIFIERS: Record<string, Set<string>> = {
  string: new Set(['exact', 'contains', 'missing']),
  token: new Set(['text', 'not', 'of-type', 'missing', 'in', 'not-in', 'below', 'above']),
  reference: new Set(['missing', 'identifier']),
  date: new Set(['missing']),
  number: new Set(['missing']),
  quantity: new Set(['missing']),
  uri: new Set(['below', 'above', 'missing']),
  composite: new Set(['missing']),
};

export const invalid = (param: string, message: string) =>
  new FhirError(400, [issue('error', 'processing', `Parameter '${param}': ${message}`, [param])]);

export function parseSearch(registry: SearchParameterRegistry, type: string | undefined, query: [string, string][], compartments: CompartmentLookup): SearchRequest {
  const request: SearchRequest = { types: type ? [type] : undefined, conditions: [], sort: [], include: [], total: 'accurate', ignored: [] };
  const typeParam = query.filter(([n]) => n === '_type').flatMap(([, v]) => v.split(',')).map((s) => s.trim()).filter(Boolean);
  if (!type && typeParam.length > 0) {
    for (const t of typeParam) if (!isKnownResourceType(t)) throw invalid('_type', `unknown resource type '${t}'`);
    request.types = typeParam;
  }
  const conditionTypes = request.types;
  for (const [rawName, rawValue] of query) {
    const name = rawName.trim();
    const value = rawValue;
    if (name === '_sort') { request.sort.push(...parseSort(registry, conditionTypes, value)); continue; }
    if (name === '_include' || name === '_revinclude' || name.startsWith('_include:') || name.startsWith('_revinclude:')) {
      request.include.push(...parseInclude(registry, name, value, request.ignored));
      continue;
    }
    if (name === '_summary') {
      if (!['true', 'count', 'data', 'text', 'false'].includes(value)) throw invalid(name, `'${value}' is not one of true, count, data, text, false`);
      request.summary = value as SearchRequest['summary'];
      continue;
    }
    if (name === '_elements') { request.elements = value.split(',').map((s) => s.trim()).filter(Boolean); continue; }
    if (name === '_total') {
      if (!['none', 'estimate', 'accurate'].includes(value)) throw invalid(name, `'${value}' is not one of none, estimate, accurate`);
      request.total = value as SearchRequest['total'];
      continue;
    }
    if (name === '_compartment') {
      const [ctype, cid] = value.split('/');
      const t = conditionTypes?.[0];
      const params = t ? compartments(ctype, t) : [];
      request.conditions.push(params.length > 0 ? { kind: 'compartment', params, targetType: ctype, targetId: cid } : { kind: 'none' });
      if (t === ctype) request.conditions.pop(), request.conditions.push({ kind: 'id', values: [cid], not: false });
      continue;
    }
    if (RESULT_PARAMETERS.has(name) || name.startsWith('_format') || name === '_pretty') continue;
    const condition = parseCondition(registry, conditionTypes, name, value, request.ignored);
    if (condition) request.conditions.push(condition);
  }
  return request;
}

export type CompartmentLookup = (compartmentType: string, type: string) => string[];

function unknown(ignored: OperationOutcomeIssue[], name: string, message: string): undefined {
  ignored.push(issue('warning', 'not-supported', `Parameter '${name}' ignored: ${message}`, [name]));
  return undefined;
}

/**
 * Bounds on the work one criterion can ask for: each chain or `_has` link is a join (and its SQL variables), each OR
 * value a term; past these a request is refused with a 400 instead of exhausting SQLite's limits or the stack.
 */
export const MAX_CHAIN_LINKS = 4;
export const MAX_OR_VALUES = 100;

/** One `name=value` criterion on `types` (several types: system search, the parameter must exist on each). */
export function parseCondition(registry: SearchParameterRegistry, types: string[] | undefined, name: string, value: string, ignored: OperationOutcomeIssue[]): Condition | undefined {
  const links = (name.match(/\./g)?.length ?? 0) + (name.match(/(^|:)_has:/g)?.length ?? 0);
  if (links > MAX_CHAIN_LINKS) throw invalid(name, `${links} chained links; at most ${MAX_CHAIN_LINKS} are supported`);
  if (name.startsWith('_has:')) return parseHas(registry, types, name, value, ignored);
  const dot = name.indexOf('.');
  const head = dot >= 0 ? name.slice(0, dot) : name;
  const chainRest = dot >= 0 ? name.slice(dot + 1) : undefined;
  const colon = head.indexOf(':');
  const code = colon >= 0 ? head.slice(0, colon) : head;
  const modifier = colon >= 0 ? head.slice(colon + 1) : undefined;
  const values = splitValues(value);
  if (values.length > MAX_OR_VALUES) throw invalid(name, `${values.length} comma-separated values; at most ${MAX_OR_VALUES} are supported`);

  if (code === '_id') {
    if (modifier && modifier !== 'not' && modifier !== 'missing') throw invalid(name, `unknown modifier ':${modifier}'`);
    if (modifier === 'missing') return value === 'true' ? { kind: 'none' } : undefined;
    return { kind: 'id', values, not: modifier === 'not' };
  }
  if (code === '_lastUpdated') {
    if (modifier) throw invalid(name, `unknown modifier ':${modifier}'`);
    return { kind: 'lastUpdated', values, name };
  }
  if (code === '_text' || code === '_content') {
    if (modifier) throw invalid(name, `unknown modifier ':${modifier}'`);
    return { kind: 'text', column: code === '_text' ? 'narrative' : 'content', values, name };
  }
  if (!types || types.length === 0) return unknown(ignored, name, 'a system search without _type supports only _id, _lastUpdated, _text, _content');
  const params = types.map((t) => registry.get(t, code));
  if (params.some((p) => !p)) return unknown(ignored, name, `unknown search parameter '${code}' for ${types.join(', ')}`);
  const param = params[0]!;
  if (types.length > 1 && params.some((p) => p!.type !== param.type)) return unknown(ignored, name, 'the parameter has different types across _type');

  if (chainRest !== undefined) {
    if (param.type !== 'reference') throw invalid(name, 'only reference parameters can be chained');
    let targets = param.targets;
    if (modifier) {
      if (!isKnownResourceType(modifier)) throw invalid(name, `unknown modifier ':${modifier}'`);
      targets = [modifier];
    }
    const chained: { type: string; conditions: Condition[] }[] = [];
    const nextCode = chainRest.split(/[.:]/)[0];
    for (const target of targets) {
      if (!registry.get(target, nextCode) && !nextCode.startsWith('_')) continue;
      const inner = parseCondition(registry, [target], chainRest, value, ignored);
      if (inner) chained.push({ type: target, conditions: [inner] });
    }
    if (chained.length === 0) return unknown(ignored, name, `no target type of '${code}' has a parameter '${nextCode}'`);
    return { kind: 'chain', param, targets: chained };
  }

  if (modifier !== undefined) {
    const allowed = MODIFIERS[param.type];
    const isTypeModifier = param.type === 'reference' && isKnownResourceType(modifier);
    if (!isTypeModifier && !allowed?.has(modifier)) throw invalid(name, `unknown modifier ':${modifier}' for a ${param.type} parameter`);
    if (modifier === 'missing') {
      if (value !== 'true' && value !== 'false') throw invalid(name, `:missing takes true or false, not '${value}'`);
      return { kind: 'missing', param, missing: value === 'true' };
    }
  }
  if (param.type === 'composite' && !param.components) return unknown(ignored, name, 'composite parameter not supported');
  if (values.length === 0) return undefined;
  return { kind: 'param', param, modifier, values, name };
}

/** `_has:Type:param:rest=value` (FHIR R4 3.1.1.5.13 reverse chaining), nestable. */
function parseHas(registry: SearchParameterRegistry, types: string[] | undefined, name: string, value: string, ignored: OperationOutcomeIssue[]): Condition | undefined {
  const m = /^_has:([A-Za-z]+):([A-Za-z0-9\-_]+):(.+)$/.exec(name);
  if (!m) throw invalid(name, 'expected _has:Type:reference-parameter:parameter');
  const [, sourceType, refCode, rest] = m;
  if (!isKnownResourceType(sourceType)) throw invalid(name, `unknown resource type '${sourceType}'`);
  const param = registry.get(sourceType, refCode);
  if (!param || param.type !== 'reference') throw invalid(name, `'${refCode}' is not a reference parameter of ${sourceType}`);
  if (types && types.length === 1 && param.targets.length > 0 && !param.targets.includes(types[0])) {
    throw invalid(name, `${sourceType}.${refCode} does not point at ${types[0]}`);
  }
  const inner = parseCondition(registry, [sourceType], rest, value, ignored);
  return { kind: 'has', sourceType, param, conditions: inner ? [inner] : [] };
}

/** Comma = OR; `\,` is a literal comma (FHIR R4 3.1.1.5.8 escaping). */
export function splitValues(value: string): string[] {
  const out: string[] = [];
  let current = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (ch === '\\' && i + 1 < value.length && ',$|\\'.includes(value[i + 1])) {
      current += ch + value[i + 1];
      i++;
    } else if (ch === ',') {
      out.push(current);
      current = '';
    } else current += ch;
  }
  out.push(current);
  return out.filter((v) => v.length > 0);
}

/** Remove the escapes of `\,`, `\$`, `\|` and `\\`. */
export function unescapeValue(value: string): string {
  return value.replace(/\\([,$|\\])/g, '$1');
}

/** Split at unescaped `sep`. */
export function splitUnescaped(value: string, sep: string): string[] {
  const out: string[] = [];
  let current = '';
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '\\' && i + 1 < value.length) { current += value[i] + value[i + 1]; i++; continue; }
    if (value[i] === sep) { out.push(current); current = ''; continue; }
    current += value[i];
  }
  out.push(current);
  return out;
}

function parseSort(registry: SearchParameterRegistry, types: string[] | undefined, value: string): SortKey[] {
  return value.split(',').map((s) => s.trim()).filter(Boolean).map((key) => {
    const descending = key.startsWith('-');
    const name = descending ? key.slice(1) : key;
    if (name === '_id' || name === '_lastUpdated') return { name, descending };
    const param = types?.length ? registry.get(types[0], name) : undefined;
    if (!param || param.type === 'composite' || param.type === 'special') throw invalid('_sort', `cannot sort by '${name}'`);
    return { name, descending, param };
  });
}

function parseInclude(registry: SearchParameterRegistry, name: string, value: string, ignored: OperationOutcomeIssue[]): IncludeSpec[] {
  const [base, mod] = name.split(':');
  const reverse = base === '_revinclude';
  if (mod !== undefined && mod !== 'iterate' && mod !== 'recurse') throw invalid(name, `unknown modifier ':${mod}'`);
  const iterate = mod === 'iterate' || mod === 'recurse';
  if (value === '*') return [{ reverse, iterate, sourceType: '*', param: '*' }];
  const [sourceType, param, targetType] = value.split(':');
  if (!sourceType || !param) throw invalid(name, `'${value}' is not Type:parameter[:targetType]`);
  if (!isKnownResourceType(sourceType)) throw invalid(name, `unknown resource type '${sourceType}'`);
  if (targetType && !isKnownResourceType(targetType)) throw invalid(name, `unknown resource type '${targetType}'`);
  if (param !== '*') {
    const p = registry.get(sourceType, param);
    if (!p || p.type !== 'reference') {
      unknown(ignored, name, `'${param}' is not a reference parameter of ${sourceType}`);
      return [];
    }
  }
  return [{ reverse, iterate, sourceType, param, targetType }];
}
