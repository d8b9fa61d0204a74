// Client of the gym HTTP API (server/gym/routes.ts): sessions, submission, audit log, changes, tools.
import type { Bundle } from '@medplum/fhirtypes';
import type { AuditEntry, ResourceChange } from '../contracts/gym-api.ts';
import { FhirClient, type FhirClientOptions } from '../contracts/fhir-client.ts';
import type { PerturbationRequest, Perturbations } from '../contracts/perturbations.ts';

export interface SessionInfo {
  id: string;
  fhirBaseUrl: string;
  now: string;
  instruction?: string;
  tools: unknown[];
  /** The session's perturbations as asked and applied (server/gym/perturbations.ts). */
  perturbations?: Perturbations;
}

export interface CreateSessionRequest {
  task?: string;
  variant?: string;
  now?: string;
  fixture?: Bundle;
  toolOptions?: { decodeAttachments?: boolean; maxResultChars?: number | null };
  perturbations?: PerturbationRequest;
}

export interface Submission {
  answer: unknown;
  files?: Record<string, string>;
  submittedAt: string;
}

export interface ToolCallResult {
  text: string;
  isError: boolean;
  finished?: boolean;
}

/** The gym server answered with an error status (network failures stay plain Errors). */
export class GymHttpError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
    this.name = 'GymHttpError';
  }
}

/** A failure that is the gym server's, not its caller's: a 5xx, or no answer at all (fetch's network TypeError). */
export function isGymInfraFailure(err: unknown): boolean {
  if (err instanceof GymHttpError) return err.status >= 500;
  return err instanceof TypeError && /fetch failed/i.test(err.message);
}

export class GymClient {
  readonly serverUrl: string;

  /** `fetch`: how requests reach the server (default the global fetch; the server's own services pass an in-process one). */
  constructor(serverUrl: string, private readonly send: typeof globalThis.fetch = (input, init) => fetch(input, init)) {
    this.serverUrl = serverUrl.replace(/\/+$/, '');
  }

  /** A FHIR client for a session's base that reaches the server the way this client does. */
  fhirClient(baseUrl: string, options: Omit<FhirClientOptions, 'fetch'> = {}): FhirClient {
    return new FhirClient(baseUrl, { ...options, fetch: this.send });
  }

  createSession(request: CreateSessionRequest): Promise<SessionInfo> {
    return this.json<SessionInfo>('POST', '/gym/sessions', request);
  }

  /** GET /gym/sessions/{id}: state, counts and the submission once there is one. */
  session(id: string): Promise<{ id: string; state: string; submission?: Submission; counts: Record<string, number> }> {
    return this.json('GET', `/gym/sessions/${id}`);
  }

  async deleteSession(id: string): Promise<void> {
    await this.json('DELETE', `/gym/sessions/${id}`);
  }

  async submit(id: string, answer: unknown, files?: Record<string, string>): Promise<Submission> {
    const body = await this.json<{ submission: Submission }>('POST', `/gym/sessions/${id}/submit`, files ? { answer, files } : { answer });
    return body.submission;
  }

  /** The whole audit log, paged through. */
  async log(id: string): Promise<AuditEntry[]> {
    const out: AuditEntry[] = [];
    for (let after = 0; ;) {
      const page = await this.json<{ entries: AuditEntry[] }>('GET', `/gym/sessions/${id}/log?after=${after}&limit=10000`);
      out.push(...page.entries);
      if (page.entries.length < 10000) return out;
      after = page.entries[page.entries.length - 1].seq;
    }
  }

  async changes(id: string): Promise<ResourceChange[]> {
    return (await this.json<{ changes: ResourceChange[] }>('GET', `/gym/sessions/${id}/changes`)).changes;
  }

  tools(format: 'openai' | 'anthropic' | 'neutral' = 'openai'): Promise<unknown[]> {
    return this.json('GET', `/gym/tools?format=${format}`);
  }

  /** Run one gym tool in the session (the server's tool executor; audited with the tool's name). */
  callTool(id: string, name: string, args: unknown): Promise<ToolCallResult> {
    return this.json('POST', `/gym/sessions/${id}/tools/${encodeURIComponent(name)}`, args ?? {});
  }

  private async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.send(this.serverUrl + path, {
      method,
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new GymHttpError(`${method} ${path} -> ${response.status}: ${text.slice(0, 500)}`, response.status);
    return (text ? JSON.parse(text) : undefined) as T;
  }
}
