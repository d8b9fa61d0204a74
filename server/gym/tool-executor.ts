// Runs the gym tools (server/gym/tools.ts) against one session over HTTP, in-process (app.inject) or against a
// running server (fetch), so every tool call passes through the FHIR routes and lands in the audit log.
import type { FastifyInstance } from 'fastify';
import { Ajv, type ValidateFunction } from 'ajv';
import { TOOL_HEADER } from './audit-hook.ts';
import { gymTools } from './tools.ts';
import { defaultToolOptions, type ToolOptions } from './sessions.ts';
import { runViewParameters } from '../operations/view-run.ts';
import { sqlQueryParameters } from '../operations/sql-query.ts';
import { evidenceSearchRequest } from '../../resources/evidence/tool.ts';
import { CVX, FLOWSHEET, ICD10CM, LOINC, RXNORM, SNOMED } from '../../seed/codes/index.ts';

/** What `terminology_search` covers without a `system`: every clinical code system the chart uses, local codes too. */
export const searchedCodeSystems: readonly string[] = [LOINC, SNOMED, ICD10CM, RXNORM, CVX, FLOWSHEET].map((t) => t.system);

export interface HttpCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path from the server root, with query, e.g. `/fhir/_session/abc/Patient?name=x`. */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface HttpResult {
  status: number;
  body: string;
}

export type HttpClient = (call: HttpCall) => Promise<HttpResult>;

export function injectClient(app: FastifyInstance): HttpClient {
  return async (call) => {
    const response = await app.inject({
      method: call.method, url: call.path, headers: { ...contentHeaders(call), ...call.headers },
      ...(call.body === undefined ? {} : { payload: JSON.stringify(call.body) }),
    });
    return { status: response.statusCode, body: response.body };
  };
}

/** A client for a server at `serverUrl` (e.g. http://127.0.0.1:8080), for the stdio MCP server. */
export function fetchClient(serverUrl: string): HttpClient {
  const root = serverUrl.replace(/\/+$/, '');
  return async (call) => {
    const response = await fetch(root + call.path, {
      method: call.method, headers: { ...contentHeaders(call), ...call.headers },
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
    });
    return { status: response.status, body: await response.text() };
  };
}

function contentHeaders(call: HttpCall): Record<string, string> {
  if (call.body === undefined) return { accept: 'application/fhir+json' };
  const type = call.method === 'PATCH' ? 'application/json-patch+json' : call.path.startsWith('/gym') ? 'application/json' : 'application/fhir+json';
  return { accept: 'application/fhir+json', 'content-type': type };
}

export interface ToolResult {
  /** Compact JSON (or a short message) for the model. */
  text: string;
  isError: boolean;
  /** True once `finish` submitted an answer. */
  finished?: boolean;
}

type Args = Record<string, unknown>;
type Loose = Record<string, any>;

let validators: Map<string, ValidateFunction> | undefined;

function validatorFor(name: string): ValidateFunction | undefined {
  if (!validators) {
    const ajv = new Ajv({ strict: false, allErrors: true });
    validators = new Map(gymTools.map((t) => [t.name, ajv.compile(t.parameters)]));
  }
  return validators.get(name);
}

export class ToolExecutor {
  private options: ToolOptions | undefined;

  /** `options` undefined: read the session's own tool options on first use. */
  constructor(private readonly http: HttpClient, readonly sessionId: string, options?: ToolOptions) {
    this.options = options;
  }

  get fhirBase(): string {
    return this.sessionId === 'default' ? '/fhir' : `/fhir/_session/${this.sessionId}`;
  }

  async call(name: string, rawArgs: unknown): Promise<ToolResult> {
    const validate = validatorFor(name);
    if (!validate) return { text: `Unknown tool '${name}'. Tools: ${gymTools.map((t) => t.name).join(', ')}`, isError: true };
    const args = (rawArgs ?? {}) as Args;
    if (!validate(args)) {
      const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '(arguments)'} ${e.message}`).join('; ');
      return { text: `Invalid arguments for ${name}: ${problems}`, isError: true };
    }
    const options = await this.toolOptions();
    const result = await this.run(name, args, options);
    return { ...result, text: truncate(result.text, options.maxResultChars) };
  }

  private async toolOptions(): Promise<ToolOptions> {
    if (!this.options) {
      const response = await this.http({ method: 'GET', path: `/gym/sessions/${this.sessionId}` });
      const session = response.status === 200 ? (JSON.parse(response.body) as { toolOptions?: ToolOptions }) : undefined;
      this.options = session?.toolOptions ?? { ...defaultToolOptions };
    }
    return this.options;
  }

  private async run(name: string, args: Args, options: ToolOptions): Promise<ToolResult> {
    const type = args.resourceType as string;
    const instance = `${this.fhirBase}/${type}/${args.id as string}`;
    const headers = { [TOOL_HEADER]: name };
    switch (name) {
      case 'fhir_search': {
        const response = await this.http({ method: 'GET', path: `${this.fhirBase}/${type}${queryString(args.params)}`, headers });
        return render(response, options, compactSearchset);
      }
      case 'fhir_read':
        return render(await this.http({ method: 'GET', path: instance, headers }), options);
      case 'fhir_create':
        return render(await this.http({ method: 'POST', path: `${this.fhirBase}/${type}`, body: args.resource, headers }), options);
      case 'fhir_update':
        return render(await this.http({ method: 'PUT', path: instance, body: args.resource, headers }), options);
      case 'fhir_patch':
        return render(await this.http({ method: 'PATCH', path: instance, body: args.patch, headers }), options);
      case 'fhir_delete': {
        const response = await this.http({ method: 'DELETE', path: instance, headers });
        if (response.status < 300) return { text: JSON.stringify({ deleted: `${type}/${args.id as string}` }), isError: false };
        return render(response, options);
      }
      case 'fhir_history': {
        const target = args.id === undefined ? `${this.fhirBase}/${type}` : instance;
        const response = await this.http({ method: 'GET', path: `${target}/_history${queryString(args.params)}`, headers });
        return render(response, options, compactHistory);
      }
      case 'terminology_search': {
        const count = (args.count as number | undefined) ?? 10;
        const response = args.system === undefined
          // Across systems: one $expand of an inline value set that includes each system whole (FHIR R4 4.9.18.1).
          ? await this.http({ method: 'POST', path: `${this.fhirBase}/ValueSet/$expand`, headers, body: {
            resourceType: 'Parameters',
            parameter: [
              { name: 'valueSet', resource: { resourceType: 'ValueSet', status: 'active', compose: { include: searchedCodeSystems.map((system) => ({ system })) } } },
              { name: 'filter', valueString: args.query }, { name: 'count', valueInteger: count },
            ],
          } })
          // One system: its implicit all-codes value set, `[system]?fhir_vs` (FHIR R4 4.8.8).
          : await this.http({ method: 'GET', headers, path: `${this.fhirBase}/ValueSet/$expand${queryString({ url: `${args.system as string}?fhir_vs`, filter: args.query, count })}` });
        return render(response, options, compactExpansion);
      }
      case 'terminology_lookup': {
        const response = await this.http({ method: 'GET', headers, path: `${this.fhirBase}/CodeSystem/$lookup${queryString({ system: args.system, code: args.code })}` });
        return render(response, options, (body) => compactLookup(body, args.system as string, args.code as string));
      }
      case 'run_view': {
        const body = runViewParameters(args as Parameters<typeof runViewParameters>[0]);
        return rawBody(await this.http({ method: 'POST', path: `${this.fhirBase}/ViewDefinition/$run`, body, headers }), options);
      }
      case 'sql_query': {
        const body = sqlQueryParameters(args as Parameters<typeof sqlQueryParameters>[0]);
        return rawBody(await this.http({ method: 'POST', path: `${this.fhirBase}/$sqlquery-run`, body, headers }), options);
      }
      case 'evidence_search': {
        const request = evidenceSearchRequest(args as Parameters<typeof evidenceSearchRequest>[0]);
        const query = request.query.length ? `?${new URLSearchParams(request.query).toString()}` : '';
        return render(await this.http({ method: 'GET', path: `${this.fhirBase}/${request.path}${query}`, headers }), options, compactEvidence);
      }
      case 'finish': {
        const response = await this.http({ method: 'POST', path: `/gym/sessions/${this.sessionId}/submit`, body: { answer: args.answer }, headers });
        if (response.status >= 400) return render(response, options);
        return { text: 'Answer submitted; the episode is over.', isError: false, finished: true };
      }
    }
    return { text: `Unknown tool '${name}'`, isError: true };
  }
}

/** `{a: 1, b: ['x', 'y']}` -> `?a=1&b=x&b=y` (a list repeats the parameter). */
export function queryString(params: unknown): string {
  if (!params || typeof params !== 'object') return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params as Args)) {
    for (const v of Array.isArray(value) ? value : [value]) search.append(name, String(v));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

function render(response: HttpResult, options: ToolOptions, compact?: (bundle: Loose) => unknown): ToolResult {
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
function rawBody(response: HttpResult, options: ToolOptions): ToolResult {
  if (response.status >= 400) return render(response, options);
  return { text: response.body, isError: false };
}

/** An expansion as a list of codes. */
function compactExpansion(valueSet: Loose): unknown {
  if (valueSet.resourceType !== 'ValueSet') return valueSet;
  const matches = ((valueSet.expansion?.contains ?? []) as Loose[]).map((c) => ({ system: c.system, code: c.code, display: c.display }));
  return { total: valueSet.expansion?.total ?? matches.length, matches };
}

/** $lookup's Parameters as one object: synonyms as text, properties by code (repeats become lists). */
function compactLookup(parameters: Loose, system: string, code: string): unknown {
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
function compactEvidence(bundle: Loose): unknown {
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
function compactSearchset(bundle: Loose): unknown {
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

function compactHistory(bundle: Loose): unknown {
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
