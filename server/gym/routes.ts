// The gym HTTP API (language-neutral: agent harnesses are mostly Python): sessions, their audit log and changes,
// answer submission, and the tool surfaces. Errors are OperationOutcomes like everywhere else.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Ajv } from 'ajv';
import { DEFAULT_SANDBOX } from '../../resources/storage/sandbox.ts';
import { sessionChanges } from './changes.ts';
import { operatorCheck, type OperatorCheck } from './operator-token.ts';
import type { PublicRoot } from '../http/public-url.ts';
import type { LiveSession, SessionManager, SessionRequest } from './sessions.ts';
import { injectClient, ToolExecutor } from '../tools/executor.ts';
import { renderTools, toolFormats, type ToolFormat } from '../tools/index.ts';
import { badRequest, issue, FhirError, notFound } from '../../resources/outcome.ts';
import { splitFilters, taskInSplit, variantSplit, type SplitFilter } from '../../contracts/splits.ts';
import { isTaskService, localServer, type TaskService } from './task-service.ts';
import { INTERNAL_HEADER } from './task-service.ts';
import { perturbationSchema } from '../../contracts/perturbations.ts';

export interface GymRoutesOptions {
  sessions: SessionManager;
  /** The root app, for running tool calls through the FHIR routes (and so through the audit hook). */
  root: FastifyInstance;
  /**
   * The operator's bearer token for GET /gym/sessions (the list of every session) and for the shared default session's
   * log, changes, reset and submit; without one those are disabled.
   */
  adminToken?: string;
  /** The server's public root URL (server/http/public-url.ts). */
  publicRoot: PublicRoot;
}

// The shapes of the gym API's requests, checked by Fastify before a handler runs (a refusal is a 400
// OperationOutcome naming the field: server/http/errors.ts). What only the server can judge (an unknown task, an
// instant's calendar validity) stays in server/gym/sessions.ts.
const formatQuery = { type: 'object', properties: { format: { type: 'string', enum: [...toolFormats] } } } as const;

const sessionBody = {
  type: 'object',
  properties: {
    task: { type: 'string' },
    variant: { type: 'string' },
    now: { type: 'string' },
    fixture: { type: 'object' },
    toolOptions: {
      type: 'object',
      properties: {
        decodeAttachments: { type: 'boolean' },
        maxResultChars: { anyOf: [{ type: 'null' }, { type: 'integer', minimum: 100 }] },
      },
      additionalProperties: false,
    },
    perturbations: perturbationSchema,
  },
} as const;

const submitBody = {
  type: 'object',
  required: ['answer'],
  properties: { answer: {}, files: { type: 'object', additionalProperties: { type: 'string' } } },
} as const;

const catalogueQuery = {
  type: 'object',
  properties: {
    specialty: { type: 'string' }, workflow: { type: 'string' }, level: { type: 'string', enum: ['patient', 'population'] }, split: { type: 'string', enum: [...splitFilters] },
  },
  additionalProperties: false,
} as const;

const logQuery = {
  type: 'object',
  properties: { after: { type: 'integer', minimum: 0 }, limit: { type: 'integer', minimum: 0 } },
} as const;

// Query strings are text, so their numbers are coerced ("?after=5"); JSON bodies are taken as sent: "true" is not a
// boolean and an unknown tool option is refused, not dropped (Fastify's defaults would coerce and strip).
const queryAjv = new Ajv({ coerceTypes: true, allErrors: true });
const bodyAjv = new Ajv({ coerceTypes: false, removeAdditional: false, allErrors: true });

export async function gymRoutes(app: FastifyInstance, options: GymRoutesOptions): Promise<void> {
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'querystring' ? queryAjv : bodyAjv).compile(schema));
  const { sessions } = options;
  const tools = injectClient(options.root);
  const requireOperator = operatorCheck(options.adminToken);
  const root = options.publicRoot;
  // The default session is everyone's /fhir: its log shows every anonymous caller's requests and bodies, and a reset
  // wipes what everyone wrote there, so those routes (and its submission) are the operator's, like the list.
  const idOf = (request: FastifyRequest, operatorForDefault = false): string => {
    const id = (request.params as { id: string }).id;
    if (operatorForDefault && id === DEFAULT_SANDBOX) requireOperator(request.headers.authorization, DEFAULT_ROUTES);
    return id;
  };

  // The server's own services reach it in process (server/gym/task-service.ts); their requests are marked internal.
  const local = localServer(options.root, sessions.internalKey);
  const internal = (request: FastifyRequest) => request.headers[INTERNAL_HEADER] === sessions.internalKey;
  const taskService = (): TaskService => {
    if (!isTaskService(sessions.tasks)) throw new FhirError(400, [issue('error', 'not-supported', 'This server was started without a tasks folder: it has no task catalogue and grades no session')]);
    return sessions.tasks;
  };

  app.get('/tools', { schema: { querystring: formatQuery } }, async (request) => renderTools(formatOf(request)));

  // The task catalogue: what each task asks for and how it is scored, never what its grader compares with.
  app.get('/tasks', { schema: { querystring: catalogueQuery } }, async (request) => {
    const query = request.query as { specialty?: string; workflow?: string; level?: string; split?: SplitFilter };
    const tasks = taskService().cards().filter((card) => (query.specialty === undefined || card.specialty === query.specialty)
      && (query.workflow === undefined || card.workflows.includes(query.workflow))
      && (query.level === undefined || card.level === query.level) && (query.split === undefined || taskInSplit(card.split, query.split)));
    // Variants take a search of the population per task, so only a task's own page lists them.
    return { tasks };
  });

  app.get('/tasks/:specialty/:slug', async (request) => {
    const { specialty, slug } = request.params as { specialty: string; slug: string };
    const service = taskService();
    const card = service.card(`${specialty}/${slug}`);
    if (!card) throw notFound(`No task '${specialty}/${slug}' on this server (GET /gym/tasks lists them)`);
    const variants = (await service.variants(card.id, local)) ?? [];
    return { ...card, variants, variantSplits: Object.fromEntries(variants.map((v) => [v, variantSplit(card.split, v)])) };
  });

  app.post('/sessions', { schema: { querystring: formatQuery, body: sessionBody } }, async (request, reply) => {
    const body = (request.body ?? {}) as SessionRequest;
    const format = formatOf(request);
    await assertKnownVariant(sessions.tasks, body, local);
    // The server's own scratch sessions (variant search) are no client's: no per-client quota.
    const session = sessions.create(body, (id) => fhirBaseUrl(root, id), internal(request) ? undefined : request.ip);
    reply.code(201).header('location', `${root()}/gym/sessions/${session.meta.id}`);
    const { id, now, instruction, task, variant, toolOptions, perturbations } = session.meta;
    return {
      id, fhirBaseUrl: fhirBaseUrl(root, id), now,
      ...(instruction !== undefined ? { instruction } : {}), ...(task !== undefined ? { task } : {}), ...(variant !== undefined ? { variant } : {}),
      toolOptions, ...(perturbations ? { perturbations } : {}), expiresAt: sessions.expiresAt(session), tools: renderTools(format),
    };
  });

  // The one route that names sessions the caller did not create: operator only (server/gym/operator-token.ts).
  app.get('/sessions', async (request) => {
    requireOperator(request.headers.authorization);
    return { sessions: sessions.list().map((s) => summary(root, sessions, s)) };
  });

  app.get('/sessions/:id', async (request) => summary(root, sessions, sessions.require(idOf(request))));

  app.delete('/sessions/:id', async (request, reply) => {
    sessions.delete(idOf(request));
    reply.code(204).send();
  });

  app.post('/sessions/:id/reset', async (request) => {
    const id = idOf(request, true);
    return summary(root, sessions, sessions.reset(id, fhirBaseUrl(root, id)));
  });

  app.post('/sessions/:id/submit', { schema: { body: submitBody } }, async (request) => ({ submission: sessions.submit(idOf(request, true), request.body) }));

  // Grades the episode as it stands, through the runner's grading path (harness/grade.ts via the TaskService). The
  // first grade ends an unsubmitted episode; the graded log stops at the episode's end, and the final state cannot
  // change after it (server/gym/episode-end.ts), so grading again gives the same verdicts.
  app.post('/sessions/:id/grade', async (request) => {
    const id = idOf(request, true);
    const session = sessions.require(id);
    if (sessions.isDefault(session)) throw badRequest('The default session (/fhir) is no episode; grade a session created with {task, variant}');
    const service = taskService();
    const { task, variant } = session.meta;
    if (task === undefined) throw badRequest(`Session '${id}' has no task; create a session with {task, variant} to grade it`);
    if (!service.card(task)) throw badRequest(`Session '${id}' is of task '${task}', which this server does not have`);
    const end = sessions.endEpisode(session);
    const log = sessions.audit.entries(id, 0, Number.MAX_SAFE_INTEGER).filter((e) => e.seq <= end.logSeq);
    const { submission } = session.meta;
    const report = await service.grade({
      task, ...(variant !== undefined ? { variant } : {}), now: session.meta.now,
      answer: submission?.answer, files: submission?.files ?? {}, log, changes: sessionChanges(session.repo, session.meta.watermark),
      fhirBasePath: `/fhir/_session/${id}`,
    }, local);
    sessions.endEpisode(session, true);
    return {
      session: id, task, ...(variant !== undefined ? { variant } : {}), submitted: submission !== undefined, endedAt: end.at,
      ...report,
    };
  });

  app.get('/sessions/:id/log', { schema: { querystring: logQuery } }, async (request) => {
    const session = sessions.require(idOf(request, true));
    const query = request.query as { after?: number; limit?: number };
    const after = query.after ?? 0;
    const limit = Math.min(query.limit ?? 10000, 10000);
    return { session: session.meta.id, entries: sessions.audit.entries(session.meta.id, after, limit) };
  });

  app.get('/sessions/:id/changes', async (request) => {
    const session = sessions.require(idOf(request, true));
    return { session: session.meta.id, changes: sessionChanges(session.repo, session.meta.watermark) };
  });

  // A tool call by name with its arguments as the body: the same executor the MCP server uses.
  app.post('/sessions/:id/tools/:name', async (request) => {
    const session = sessions.require(idOf(request));
    const { name } = request.params as { name: string };
    const executor = new ToolExecutor(tools, session.meta.id, session.meta.toolOptions);
    return executor.call(name, request.body ?? {});
  });
}

/**
 * A session of a task the server knows must name one of its variants on this population; the 400 lists them. A
 * request that brings its own fixture brings its own patients, which the server's variant list cannot judge.
 */
async function assertKnownVariant(tasks: SessionManager['tasks'], body: SessionRequest, local: ReturnType<typeof localServer>): Promise<void> {
  if (body.task === undefined || body.fixture !== undefined || !isTaskService(tasks)) return;
  const variants = await tasks.variants(body.task, local);
  if (variants === undefined) return; // an unknown task: SessionManager.create answers it
  if (body.variant === undefined ? variants.length === 1 && variants[0] === 'population' : variants.includes(body.variant)) return;
  const valid = variants.length === 0 ? 'it has no variant on this server\'s population' : `its variants on this server: ${variants.join(', ')}`;
  const problem = body.variant === undefined ? 'needs a variant' : `has no variant '${body.variant}'`;
  throw new FhirError(400, [issue('error', 'invalid', `Task '${body.task}' ${problem}; ${valid}`, ['variant'])]);
}

/** What the operator check's refusal names. */
const DEFAULT_ROUTES = 'The default session\'s log, changes, reset and submit';

/** The tool format a route schema admitted (openai unless asked). */
function formatOf(request: FastifyRequest): ToolFormat {
  return (request.query as { format?: ToolFormat }).format ?? 'openai';
}

export function fhirBaseUrl(root: PublicRoot, id: string): string {
  return id === DEFAULT_SANDBOX ? `${root()}/fhir` : `${root()}/fhir/_session/${id}`;
}

function summary(root: PublicRoot, sessions: SessionManager, session: LiveSession) {
  const { id, task, variant, instruction, now, createdAt, toolOptions, submission, ended, perturbations } = session.meta;
  const counts = sessions.audit.counts(id);
  return {
    id, fhirBaseUrl: fhirBaseUrl(root, id),
    ...(task !== undefined ? { task } : {}), ...(variant !== undefined ? { variant } : {}), ...(instruction !== undefined ? { instruction } : {}),
    state: submission ? 'submitted' : 'active',
    now, createdAt,
    lastActiveAt: new Date(session.lastActive).toISOString(),
    ...(sessions.isDefault(session) ? {} : { expiresAt: sessions.expiresAt(session) }),
    hasFixture: session.meta.fixture !== undefined,
    toolOptions,
    ...(perturbations ? { perturbations } : {}),
    counts: { ...counts, overlayResources: session.repo.store.countIn(id) },
    ...(submission ? { submission } : {}),
    // The episode's end (its first submit, or a grade): from then on writes and submits answer 409.
    ...(ended ? { ended: { at: ended.at, graded: ended.graded ?? false } } : {}),
  };
}

