// How tool results read to a model: HTTP answers turned into compact JSON (errors as their issues, searchsets as
// resources plus the next page's parameters, expansions as code lists), text attachments decoded, long text cut.
import type { ToolOptions } from '../gym/sessions.ts';
import type { HttpResult, ToolResult } from './tool.ts';

type Loose = Record<string, any>;

/** `{a: 1, b: ['x', 'y']}` -> `?a=1&b=x&b=y` (a list repeats the parameter). */
export function queryString(params: unknown): string {
  if (!params || typeof params !== 'object') return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params as Loose)) {
    for (const v of Array.isArray(value) ? value : [value]) search.append(name, String(v));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export function render(response: HttpResult, options: ToolOptions, compact?: (bundle: Loose) => unknown): ToolResult {
  let body: Loose | undefined;
  try {
    body = response.body ? (JSON.parse(response.body) as Loose) : undefined;
  } catch {
    body = undefined;
  }
  if (response.status >= 400) {
    const issues = (body?.issue as Loose[] | undefined)?.map((i) => ({ severity: i.severity, code: i.code, diagnostics: i.diagnostics, expression: i.expression }));
    return { text: JSON.stringify({ error: response.status, issues: issues ?? [] }), isError: true };
  }
  if (body === undefined) return { text: JSON.stringify({ status: response.status }), isError: false };
  if (options.decodeAttachments) decodeAttachments(body);
  return { text: JSON.stringify(compact ? compact(body) : body), isError: false };
}

/** Rows of $run / $sqlquery-run as the server wrote them (a JSON array or CSV); errors as for every tool. */
export function rawBody(response: HttpResult, options: ToolOptions): ToolResult {
  if (response.status >= 400) return render(response, options);
  return { text: response.body, isError: false };
}

/** An expansion as a list of codes. */
export function compactExpansion(valueSet: Loose): unknown {
  if (valueSet.resourceType !== 'ValueSet') return valueSet;
  const matches = ((valueSet.expansion?.contains ?? []) as Loose[]).map((c) => ({ system: c.system, code: c.code, display: c.display }));
  return { total: valueSet.expansion?.total ?? matches.length, matches };
}

/** $lookup's Parameters as one object: synonyms as text, properties by code (repeats become lists). */
export function compactLookup(parameters: Loose, system: string, code: string): unknown {
  if (parameters.resourceType !== 'Parameters') return parameters;
  const out: Loose = { system, code };
  const synonyms: string[] = [];
  const properties: Record<string, unknown> = {};
  for (const p of (parameters.parameter ?? []) as Loose[]) {
    if (p.name === 'name' || p.name === 'display' || p.name === 'version' || p.name === 'definition') out[p.name] = p.valueString;
    else if (p.name === 'designation') {
      const value = (p.part as Loose[] | undefined)?.find((part) => part.name === 'value')?.valueString;
      if (typeof value === 'string') synonyms.push(value);
    } else if (p.name === 'property') {
      const parts = (p.part ?? []) as Loose[];
      const key = parts.find((part) => part.name === 'code')?.valueCode as string | undefined;
      const valuePart = parts.find((part) => part.name === 'value');
      if (!key || !valuePart) continue;
      const valueKey = Object.keys(valuePart).find((k) => k.startsWith('value'))!;
      const value = valuePart[valueKey];
      const existing = properties[key];
      properties[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
    }
  }
  if (synonyms.length > 0) out.synonyms = synonyms;
  if (Object.keys(properties).length > 0) out.properties = properties;
  return out;
}

/** $evidence's searchset: each item with its score and the reason it ranked. */
export function compactEvidence(bundle: Loose): unknown {
  if (bundle.resourceType !== 'Bundle') return bundle;
  const entries = (bundle.entry ?? []) as Loose[];
  const items = entries.filter((e) => (e.search?.mode ?? 'match') === 'match').map((e) => {
    const reason = ((e.extension ?? []) as Loose[]).flatMap((x) => (x.extension ?? []) as Loose[]).find((x) => x.url === 'summary')?.valueString;
    return { score: e.search?.score, ...(reason ? { reason } : {}), resource: e.resource };
  });
  const notes = entries.filter((e) => e.search?.mode === 'outcome').flatMap((e) => (e.resource?.issue ?? []) as Loose[]).map((i) => i.diagnostics);
  return { total: bundle.total, items, ...(notes.length > 0 ? { notes } : {}) };
}

/** A searchset as the model needs it: matches, includes, warnings and the next page's parameters. */
export function compactSearchset(bundle: Loose): unknown {
  if (bundle.resourceType !== 'Bundle') return bundle;
  const entries = (bundle.entry ?? []) as Loose[];
  const out: Loose = { total: bundle.total, resources: entries.filter((e) => (e.search?.mode ?? 'match') === 'match').map((e) => e.resource) };
  const included = entries.filter((e) => e.search?.mode === 'include').map((e) => e.resource);
  if (included.length > 0) out.included = included;
  const warnings = entries.filter((e) => e.search?.mode === 'outcome').flatMap((e) => (e.resource?.issue ?? []) as Loose[]).map((i) => i.diagnostics);
  if (warnings.length > 0) out.warnings = warnings;
  const next = (bundle.link as Loose[] | undefined)?.find((l) => l.relation === 'next')?.url as string | undefined;
  if (next) out.next = paramsOf(next);
  return out;
}

export function compactHistory(bundle: Loose): unknown {
  if (bundle.resourceType !== 'Bundle') return bundle;
  const versions = ((bundle.entry ?? []) as Loose[]).map((e) => {
    const version: Loose = { method: e.request?.method, status: e.response?.status };
    if (e.resource) version.resource = e.resource;
    else if (e.request?.url) version.url = e.request.url;
    return version;
  });
  const out: Loose = { total: bundle.total, versions };
  const next = (bundle.link as Loose[] | undefined)?.find((l) => l.relation === 'next')?.url as string | undefined;
  if (next) out.next = paramsOf(next);
  return out;
}

/** The query of a paging link as tool params (repeats become lists). */
function paramsOf(url: string): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [name, value] of new URL(url).searchParams) {
    const existing = params[name];
    params[name] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return params;
}

const TEXT_MEDIA = /^(text\/|application\/(json|xml|[\w.+-]+\+(json|xml))\b)/i;

/** Replace base64 `data` of text attachments (DocumentReference notes, report forms) with `decodedText`. */
export function decodeAttachments(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) decodeAttachments(item);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const node = value as Loose;
  if (typeof node.data === 'string' && typeof node.contentType === 'string' && TEXT_MEDIA.test(node.contentType)) {
    node.decodedText = Buffer.from(node.data, 'base64').toString('utf8');
    delete node.data;
  }
  for (const child of Object.values(node)) if (child && typeof child === 'object') decodeAttachments(child);
}

export function truncate(text: string, max: number | null): string {
  if (max === null || text.length <= max) return text;
  return `${text.slice(0, max)}... [truncated: ${text.length} characters, showing the first ${max}]`;
}

// Strict-mode tool schemas (OpenAI `strict: true` function calling, Anthropic strict tool use). Both accept only closed
// objects whose every property is required, so an optional property becomes required-and-nullable; neither accepts a
// free-form object (a FHIR resource, a map of search parameters, a patch value), so those travel as JSON text and
// decodeStrictArguments turns them back into the values the tool's own schema describes. Length and range bounds are
// not accepted by both either: they move into the description (the server still checks them and answers with a tool
// error when one is broken).

type Schema = Record<string, any>;

const BOUNDS = ['minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems', 'multipleOf'] as const;

/** An object without declared properties, or a schema without a type: any JSON value fits. */
function freeForm(node: Schema): boolean {
  if (node.type === undefined && node.anyOf === undefined && node.enum === undefined) return true;
  return node.type === 'object' && node.properties === undefined;
}

function withNull(node: Schema): Schema {
  const types = Array.isArray(node.type) ? node.type : [node.type];
  return { ...node, type: types.includes('null') ? types : [...types, 'null'], ...(node.enum ? { enum: [...node.enum, null] } : {}) };
}

function strictNode(node: Schema, nullable: boolean): Schema {
  let out: Schema;
  if (freeForm(node)) {
    out = { type: 'string', description: `${node.description ? `${node.description} ` : ''}Give it as JSON text.` };
  } else if (node.type === 'object') {
    const required = new Set<string>(node.required ?? []);
    const properties = Object.fromEntries(Object.entries(node.properties as Record<string, Schema>).map(([k, v]) => [k, strictNode(v, !required.has(k))]));
    out = { type: 'object', ...(node.description ? { description: node.description } : {}), properties, required: Object.keys(properties), additionalProperties: false };
  } else {
    out = { ...node };
    if (node.type === 'array' && node.items) out.items = strictNode(node.items as Schema, false);
    const bounds = BOUNDS.filter((b) => node[b] !== undefined).map((b) => `${b} ${JSON.stringify(node[b])}`);
    for (const b of BOUNDS) delete out[b];
    if (bounds.length > 0) out.description = `${node.description ? `${node.description} ` : ''}(${bounds.join(', ')})`;
  }
  return nullable ? withNull(out) : out;
}

/** A tool's argument schema in the form strict mode accepts (see above). */
export function strictSchema(parameters: Schema): Schema {
  return strictNode(parameters, false);
}

/** Arguments a model produced against strictSchema(parameters), turned back into what `parameters` describes. */
export function decodeStrictArguments(parameters: Schema, args: unknown): unknown {
  if (args === null || args === undefined) return args;
  if (freeForm(parameters)) {
    if (typeof args !== 'string') return args;
    try {
      return JSON.parse(args);
    } catch {
      return args; // not JSON after all: the tool's validation names the problem to the model
    }
  }
  if (parameters.type === 'object' && parameters.properties && typeof args === 'object' && !Array.isArray(args)) {
    const required = new Set<string>(parameters.required ?? []);
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(args as Record<string, unknown>)) {
      if (value === null && !required.has(key)) continue; // strict mode's way of leaving an optional property out
      const schema = (parameters.properties as Record<string, Schema>)[key];
      out[key] = schema ? decodeStrictArguments(schema, value) : value;
    }
    return out;
  }
  if (parameters.type === 'array' && parameters.items && Array.isArray(args)) return args.map((item) => decodeStrictArguments(parameters.items as Schema, item));
  return args;
}
