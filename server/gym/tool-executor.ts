// Runs the gym tools (server/gym/tools.ts) against one session over HTTP, in-process (app.inject) or against a
// running server (fetch), so every tool call passes through the FHIR routes and lands in the audit log.
import type { FastifyInstance } from 'fastify';
import { Ajv, type ValidateFunction } from 'ajv';
import { TOOL_HEADER } from './audit-hook.ts';
import { gymTools } from './tools.ts';
import { defaultToolOptions, type ToolOptions } from './sessions.ts';

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
  return { text: JSON.stringify(compact && body.resourceType === 'Bundle' ? compact(body) : body), isError: false };
}

/** A searchset as the model needs it: matches, includes, warnings and the next page's parameters. */
function compactSearchset(bundle: Loose): unknown {
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
