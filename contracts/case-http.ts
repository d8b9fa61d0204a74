// The only project code an adversarial case agent (tasks/*/*/cases/{correct,wrong}/*.ts) may import: a thin fetch
// wrapper over the session's FHIR base, as any HTTP client in any language would write. It knows nothing of graders,
// solutions or the seed, so a case proves a grader right or wrong from the outside.
import type { Bundle, Resource } from '@medplum/fhirtypes';

export interface CaseContext {
  /** The session's FHIR base URL (`.../fhir/_session/{id}`). */
  base: string;
  /** The variant's patient id. */
  patient: string;
  /** The session clock (ISO instant). */
  now: string;
  /** The instruction the agent was given, with the patient filled in. */
  instruction: string;
  http: CaseHttp;
  /** Submit the final answer (the gym's `POST /gym/sessions/{id}/submit`). */
  submit(answer: unknown, files?: Record<string, string>): Promise<void>;
}

export type CaseAgent = (ctx: CaseContext) => Promise<void>;

/** What a case module exports besides its default agent. */
export interface CaseModule {
  default: CaseAgent;
  /** What clinical behaviour the case stands for (shown in `task check`). */
  description?: string;
  /** Wrong cases: the checkpoints expected to catch it (at least one of them must fail); default any checkpoint. */
  catches?: string[];
  /** Wrong cases: 'every' variant must fail (default), or only 'some' (a constant policy right on some charts). */
  mustFail?: 'every' | 'some';
}

export class CaseHttpError extends Error {
  constructor(readonly status: number, readonly body: unknown, what: string) {
    super(`${what} -> ${status}: ${JSON.stringify(body).slice(0, 300)}`);
  }
}

/** GET/POST/PUT/PATCH/DELETE with JSON bodies against one FHIR base. */
export class CaseHttp {
  constructor(readonly base: string) {}

  async request<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const url = /^https?:/.test(path) ? path : `${this.base}/${path.replace(/^\//, '')}`;
    const headers: Record<string, string> = { accept: 'application/fhir+json' };
    if (body !== undefined) headers['content-type'] = method === 'PATCH' ? 'application/json-patch+json' : 'application/fhir+json';
    const res = await fetch(url, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    const json = text ? (JSON.parse(text) as unknown) : undefined;
    if (!res.ok) throw new CaseHttpError(res.status, json, `${method} ${url}`);
    return json as T;
  }

  /** Every match of a search, following `next` links. */
  async search<T extends Resource = Resource>(type: string, params: Record<string, string | number> = {}): Promise<T[]> {
    const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
    const out: T[] = [];
    let bundle = await this.request<Bundle>('GET', `${type}${query ? `?${query}` : ''}`);
    for (let page = 0; page < 50; page++) {
      for (const e of bundle.entry ?? []) if ((e.search?.mode ?? 'match') === 'match' && e.resource) out.push(e.resource as T);
      const next = bundle.link?.find((l) => l.relation === 'next')?.url;
      if (!next) break;
      bundle = await this.request<Bundle>('GET', next);
    }
    return out;
  }

  read<T extends Resource = Resource>(type: string, id: string): Promise<T> {
    return this.request<T>('GET', `${type}/${id}`);
  }

  create<T extends Resource>(resource: T): Promise<T> {
    return this.request<T>('POST', resource.resourceType, resource);
  }

  update<T extends Resource>(resource: T & { id: string }): Promise<T> {
    return this.request<T>('PUT', `${resource.resourceType}/${resource.id}`, resource);
  }

  delete(type: string, id: string): Promise<unknown> {
    return this.request('DELETE', `${type}/${id}`);
  }
}
