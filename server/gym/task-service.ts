// What the gym's task catalogue and grading routes need from the tasks (GET /gym/tasks, POST /gym/sessions/{id}/grade).
// The server may not import tasks or graders (ARCHITECTURE.md, layers), so the tasks folder supplies this interface:
// harness/task-service.ts, given to buildApp({tasks}) by `ehr-gym serve`, in-process `ehr-gym mcp` and the runner's
// in-process server, like the plain TaskSource. Its methods reach the server back through a LocalServer (in-process
// HTTP), so variants are found and final states read exactly as the runner finds and reads them.
import type { FastifyInstance } from 'fastify';
import type { AuditEntry, ResourceChange } from '../../contracts/gym-api.ts';
import type { TaskSplit } from '../../contracts/splits.ts';
import type { CheckpointCategory, Verdict } from '../../contracts/task.ts';
import type { TaskSource } from './sessions.ts';

/** The server as its own services reach it: in-process requests (app.inject) under a stand-in origin. */
export interface LocalServer {
  /** The root URL to put before `/fhir/...` and `/gym/...` (no listening socket behind it). */
  url: string;
  fetch: typeof globalThis.fetch;
}

/** What the catalogue tells about a task: the rubric's outline, never what a grader computes or compares with. */
export interface TaskCard {
  id: string;
  title: string;
  specialty: string;
  workflows: string[];
  level: 'patient' | 'population';
  /** The task's split (contracts/splits.ts): `by-patient` unless task.json marks it `held-out` or `train`. */
  split: TaskSplit;
  /** Whether the episode goes on after a submit (otherwise the first submit ends it). */
  continuation: boolean;
  checkpoints: { id: string; category: CheckpointCategory; description: string; weight: number; critical: boolean }[];
  guidelines: { title: string; citation?: string; url?: string }[];
}

/** A session's episode as its grader is given it. */
export interface GradeRequest {
  task: string;
  variant?: string;
  /** The session clock's start. */
  now: string;
  answer: unknown;
  files: Record<string, string>;
  /** The log up to the episode's end. */
  log: AuditEntry[];
  changes: ResourceChange[];
  /** The session's FHIR base below the LocalServer's url, e.g. `/fhir/_session/{id}`. */
  fhirBasePath: string;
}

/** POST /gym/sessions/{id}/grade's verdicts: what `ehr-gym run` writes for an episode. */
export interface GradeReport {
  pass: boolean;
  /** Weighted checkpoint score in [0, 1]. */
  score: number;
  verdicts: Verdict[];
  graderVersion: string;
  writes: number;
  toolCalls: number;
  codeLookupMisses: unknown[];
  codeLookupCheckError?: string;
}

/** A TaskSource that also describes its tasks, lists their variants and grades their sessions. */
export interface TaskService extends TaskSource {
  /** Every task served, sorted by id. */
  cards(): TaskCard[];
  card(task: string): TaskCard | undefined;
  /** The task's variant ids on this server's population (patient ids, or `population`); undefined for an unknown task. */
  variants(task: string, server: LocalServer): Promise<string[] | undefined>;
  grade(request: GradeRequest, server: LocalServer): Promise<GradeReport>;
}

export function isTaskService(source: TaskSource | undefined): source is TaskService {
  const s = source as Partial<TaskService> | undefined;
  return typeof s?.cards === 'function' && typeof s.variants === 'function' && typeof s.grade === 'function';
}

/** Marks the server's own in-process requests (a per-process secret): not audited, not held to a client's quota. */
export const INTERNAL_HEADER = 'x-ehr-gym-internal';

/** A fetch that answers through `app.inject`, whatever origin the URL names (absolute `next` links included). */
export function localServer(app: FastifyInstance, internalKey: string): LocalServer {
  const fetchLocal = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => { headers[name] = value; });
    const response = await app.inject({
      method: (init.method ?? 'GET') as 'GET', url: url.pathname + url.search,
      headers: { ...headers, [INTERNAL_HEADER]: internalKey },
      ...(typeof init.body === 'string' ? { payload: init.body } : {}),
    });
    const answerHeaders = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) answerHeaders.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    }
    const empty = [101, 204, 205, 304].includes(response.statusCode);
    return new Response(empty ? null : new Uint8Array(response.rawPayload), { status: response.statusCode, headers: answerHeaders });
  };
  return { url: 'http://ehr-gym.internal', fetch: fetchLocal as typeof globalThis.fetch };
}
