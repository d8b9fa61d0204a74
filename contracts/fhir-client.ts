// A small fetch-based FHIR client bound to one session's base URL. Reference solutions and graders use it, so every
// call goes over HTTP and lands in the session's audit log like an agent's would. Writes can be recorded and
// selectively skipped: the mutation check of `ehr-gym task check` replays a solution with one write dropped.
import type { Bundle, OperationOutcome, Resource } from '@medplum/fhirtypes';

export type SearchParams = Record<string, string | number | boolean | (string | number)[] | undefined>;

export type WriteKind = 'create' | 'update' | 'patch' | 'delete';

export interface WriteCall {
  kind: WriteKind;
  resourceType: string;
  id?: string;
  body?: unknown;
}

/** Decides per write (numbered from 0 in call order) whether it reaches the server. */
export type WritePolicy = (call: WriteCall, index: number) => 'perform' | 'skip';

export class FhirHttpError extends Error {
  constructor(readonly status: number, readonly outcome: OperationOutcome | undefined, method: string, url: string) {
    super(`${method} ${url} -> ${status}: ${outcome?.issue?.map((i) => i.diagnostics ?? i.code).join('; ') ?? 'no OperationOutcome'}`);
  }
}

export interface FhirClientOptions {
  /** Extra headers on every request (e.g. the gym tool header). */
  headers?: Record<string, string>;
  writePolicy?: WritePolicy;
  /** How requests reach the server (default the global fetch; a grader run inside the server passes an in-process one). */
  fetch?: typeof globalThis.fetch;
}

export class FhirClient {
  readonly baseUrl: string;
  /** Every write requested, in order, whether performed or skipped. */
  readonly writes: (WriteCall & { skipped: boolean })[] = [];
  /** Number of HTTP requests sent. */
  requests = 0;

  constructor(baseUrl: string, private readonly options: FhirClientOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  /** FHIR search (R4 3.1.0.9) following `next` links; returns the matches (not includes) of every page. */
  async search<T extends Resource = Resource>(resourceType: string, params: SearchParams = {}, options: { maxPages?: number } = {}): Promise<T[]> {
    const out: T[] = [];
    let bundle = await this.searchBundle(resourceType, params);
    for (let page = 1; ; page++) {
      for (const entry of bundle.entry ?? []) if ((entry.search?.mode ?? 'match') === 'match' && entry.resource) out.push(entry.resource as T);
      const next = bundle.link?.find((l) => l.relation === 'next')?.url;
      if (!next || page >= (options.maxPages ?? 100)) return out;
      bundle = await this.request<Bundle>('GET', next);
    }
  }

  /** One page of a search, as the server returned it. */
  searchBundle(resourceType: string, params: SearchParams = {}): Promise<Bundle> {
    return this.request<Bundle>('GET', `${this.baseUrl}/${resourceType}${queryString(params)}`);
  }

  /** POST a read-only operation (e.g. `ViewDefinition/$run`, `$sqlquery-run`) with a Parameters body; not a write. */
  operation<T = unknown>(path: string, parameters: Resource & { resourceType: 'Parameters' }): Promise<T> {
    return this.request<T>('POST', `${this.baseUrl}/${path.replace(/^\/+/, '')}`, parameters);
  }

  read<T extends Resource = Resource>(resourceType: string, id: string): Promise<T> {
    return this.request<T>('GET', `${this.baseUrl}/${resourceType}/${id}`);
  }

  /** Read, or undefined on 404/410. */
  async tryRead<T extends Resource = Resource>(resourceType: string, id: string): Promise<T | undefined> {
    try {
      return await this.read<T>(resourceType, id);
    } catch (err) {
      if (err instanceof FhirHttpError && (err.status === 404 || err.status === 410)) return undefined;
      throw err;
    }
  }

  async create<T extends Resource = Resource>(resource: T): Promise<T> {
    const call: WriteCall = { kind: 'create', resourceType: resource.resourceType, body: resource };
    if (this.skip(call)) return { ...resource, id: `skipped-${this.writes.length - 1}` };
    return this.request<T>('POST', `${this.baseUrl}/${resource.resourceType}`, resource);
  }

  async update<T extends Resource = Resource>(resource: T): Promise<T> {
    if (!resource.id) throw new Error('update needs resource.id');
    const call: WriteCall = { kind: 'update', resourceType: resource.resourceType, id: resource.id, body: resource };
    if (this.skip(call)) return resource;
    return this.request<T>('PUT', `${this.baseUrl}/${resource.resourceType}/${resource.id}`, resource);
  }

  /** JSON Patch (RFC 6902). */
  async patch<T extends Resource = Resource>(resourceType: string, id: string, operations: unknown[]): Promise<T> {
    const call: WriteCall = { kind: 'patch', resourceType, id, body: operations };
    if (this.skip(call)) return { resourceType, id } as T;
    return this.request<T>('PATCH', `${this.baseUrl}/${resourceType}/${id}`, operations, 'application/json-patch+json');
  }

  async delete(resourceType: string, id: string): Promise<void> {
    const call: WriteCall = { kind: 'delete', resourceType, id };
    if (this.skip(call)) return;
    await this.request('DELETE', `${this.baseUrl}/${resourceType}/${id}`);
  }

  private skip(call: WriteCall): boolean {
    const decision = this.options.writePolicy?.(call, this.writes.length) ?? 'perform';
    this.writes.push({ ...call, skipped: decision === 'skip' });
    return decision === 'skip';
  }

  private async request<T>(method: string, url: string, body?: unknown, contentType = 'application/fhir+json'): Promise<T> {
    this.requests++;
    const response = await (this.options.fetch ?? fetch)(url, {
      method,
      headers: { accept: 'application/fhir+json', ...(body === undefined ? {} : { 'content-type': contentType }), ...this.options.headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const parsed = text ? (JSON.parse(text) as unknown) : undefined;
    if (!response.ok) throw new FhirHttpError(response.status, parsed as OperationOutcome | undefined, method, url);
    return parsed as T;
  }
}

/** `{a: 1, b: ['x', 'y']}` -> `?a=1&b=x&b=y`; a list repeats the parameter (AND), undefined values are left out. */
export function queryString(params: SearchParams): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(name, String(v));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** `Patient/123` (or an absolute URL ending so) -> `123` when it points at the given type. */
export function referenceId(reference: string | undefined, type: string): string | undefined {
  if (!reference) return undefined;
  const match = new RegExp(`(?:^|/)${type}/([A-Za-z0-9\\-.]{1,64})(?:/_history/[^/]+)?$`).exec(reference);
  return match?.[1];
}
