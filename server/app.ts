// Builds the Fastify app. Read top to bottom, this file is the architecture: the services a request uses, then
// the stages it meets (parsing, routing to a FHIR interaction, error rendering).
import Fastify, { type FastifyInstance } from 'fastify';
import { Store } from '../resources/storage/store.ts';
import { Repository } from '../resources/storage/repository.ts';
import { DEFAULT_SANDBOX, makeSandbox, type Clock, wallClock } from '../resources/storage/sandbox.ts';
import { createSearchService } from '../resources/search/index.ts';
import { sharedTerminology, type TerminologyService } from '../resources/terminology/index.ts';
import { defaultSettings, type ServerSettings } from './context.ts';
import type { ServerContext } from './fhir-request.ts';
import { defaultOperations } from './operations/index.ts';
import { registerBodyParsers } from './http/content-type.ts';
import { registerErrorHandlers, renderClientError, renderError } from './http/errors.ts';
import { fhirRoutes } from './http/fhir-routes.ts';
import { ReadPool } from './read-pool/pool.ts';
import { route } from './router.ts';
import { publicRoot } from './http/public-url.ts';
import { SessionManager, type GymOptions, type TaskSource } from './gym/sessions.ts';
import { registerAuditHook } from './gym/audit-hook.ts';
import { registerEpisodeEndGuard } from './gym/episode-end.ts';
import { registerSessionPathGuard } from './gym/session-paths.ts';
import { gymRoutes } from './gym/routes.ts';
import { registerPerturbationHooks } from './gym/perturbations.ts';
import { INTERNAL_HEADER } from './gym/task-service.ts';
import { mcpRoutes } from './gym/mcp.ts';
import { openenvRoutes } from './openenv/routes.ts';

export const logLevels = ['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
export type LogLevel = (typeof logLevels)[number];

export interface AppOptions {
  /** SQLite file; default in-memory. */
  dbPath?: string;
  /** An already open store (tests share one between apps). */
  store?: Store;
  settings?: Partial<ServerSettings>;
  /** Clock of the default sandbox (wall clock unless given). */
  clock?: Clock;
  /** Structured (pino JSON) log lines at this level and above on stdout; off when not given (tests, embedding). */
  logLevel?: LogLevel;
  bodyLimit?: number;
  /** Gym session limits (max sessions, per-client quota and creation rate, idle TTL, audit log bounds). */
  gym?: GymOptions;
  /** Resolves `task`/`variant` of POST /gym/sessions (an unknown task is then a 400); without it they are only stored. */
  tasks?: TaskSource;
  /** The operator's bearer token for GET /gym/sessions; without one that list is disabled (server/gym/operator-token.ts). */
  adminToken?: string;
  /**
   * The public root URL every absolute URL in an answer starts from (server/http/public-url.ts); without it, the
   * listening address. The Host header is never used.
   */
  baseUrl?: string;
  /**
   * Whom to believe about the client's address (Fastify's `trustProxy`: true, or the proxies' addresses or CIDRs). Behind
   * a reverse proxy every request comes from the proxy, and the per-client session limits need the real client.
   */
  trustProxy?: boolean | string | string[];
  /** The terminology the operations and the search engine use; default the process's shared service over every source. */
  terminology?: TerminologyService;
  /**
   * Read workers (server/read-pool/): searches and the other reads that can be heavy run on `workers` worker threads,
   * each with its own read-only connection, so one heavy request does not hold every session. Without it (or with 0
   * workers) everything runs on the main thread. Needs a database file and the shared terminology; ignored otherwise.
   */
  readPool?: { workers: number; stopAfterMs?: number; maxHeapMiB?: number };
}

export interface BuiltApp {
  app: FastifyInstance;
  context: ServerContext;
  sessions: SessionManager;
  /** The read workers, when AppOptions.readPool started some. */
  readPool?: ReadPool;
}

export function buildApp(options: AppOptions = {}): BuiltApp {
  // Built once per process and shared by every app in it (its index is built on first use, see sharedTerminology).
  const terminology = options.terminology ?? sharedTerminology();
  const search = createSearchService(terminology);
  const store = options.store ?? new Store({ path: options.dbPath ?? ':memory:', indexers: [search.indexer] });
  const operations = defaultOperations();
  const context: ServerContext = { store, settings: { ...defaultSettings, ...options.settings }, search, terminology, operations };

  const defaultRepository = new Repository(store, makeSandbox(DEFAULT_SANDBOX, { clock: options.clock ?? wallClock }));
  // Gym sessions: one sandbox each over the same base (server/gym/sessions.ts).
  const sessions = new SessionManager(store, context, defaultRepository, options.gym, options.tasks);
  const repositoryFor = (sessionId: string | undefined): Repository =>
    sessionId === undefined ? defaultRepository : sessions.repositoryFor(sessionId);

  const app = Fastify({
    logger: options.logLevel === undefined || options.logLevel === 'silent' ? false : { level: options.logLevel },
    bodyLimit: options.bodyLimit ?? 32 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    frameworkErrors: renderError,
    // Requests Node's HTTP parser refuses are answered with an OperationOutcome too (server/http/errors.ts).
    clientErrorHandler: renderClientError,
    http: { requireHostHeader: false },
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
  });
  const root = publicRoot(app, options.baseUrl);
  registerBodyParsers(app);
  registerErrorHandlers(app);
  registerSessionPathGuard(app);
  registerAuditHook(app, sessions);
  registerEpisodeEndGuard(app, sessions, operations);
  registerPerturbationHooks(app, sessions, INTERNAL_HEADER);
  const readPool = startReadPool(options, store, context, app);
  app.register(fhirRoutes, { prefix: '/fhir', context, repositoryFor, publicRoot: root, readPool });
  app.register(fhirRoutes, { prefix: '/fhir/_session/:sessionId', context, repositoryFor, publicRoot: root, readPool });
  app.register(gymRoutes, { prefix: '/gym', sessions, root: app, adminToken: options.adminToken, publicRoot: root });
  app.register(mcpRoutes, { sessions, root: app });
  app.register(openenvRoutes, { prefix: '/openenv', sessions, root: app });
  app.addHook('onClose', async () => {
    await readPool?.close();
    sessions.close();
    if (!options.store) store.close();
  });
  return { app, context, sessions, ...(readPool ? { readPool } : {}) };
}

function startReadPool(options: AppOptions, store: Store, context: ServerContext, app: FastifyInstance): ReadPool | undefined {
  const { workers = 0, ...limits } = options.readPool ?? {};
  // A worker opens the database by its file name and builds the shared terminology itself.
  if (workers <= 0 || store.db.memory || options.terminology) return undefined;
  const pool = new ReadPool({
    dbPath: store.db.name, settings: context.settings, size: workers, ...limits, inline: route,
    onFailure: (err) => app.log.error({ err }, 'read workers could not start; reads are answered on the main thread'),
  });
  return pool;
}
