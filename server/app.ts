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
import { OperationRegistry } from './operations/registry.ts';
import { validateOperation } from './operations/validate.ts';
import { lookupOperation } from './operations/terminology-lookup.ts';
import { expandOperation } from './operations/terminology-expand.ts';
import { validateCodeOperation } from './operations/terminology-validate-code.ts';
import { subsumesOperation } from './operations/terminology-subsumes.ts';
import { translateOperation } from './operations/terminology-translate.ts';
import { everythingOperation } from './operations/everything.ts';
import { evidenceOperation } from './operations/evidence.ts';
import { viewDefinitionRunOperation, viewRunOperation } from './operations/view-run.ts';
import { sqlQueryRunOperation } from './operations/sql-query.ts';
import { registerBodyParsers } from './http/content-type.ts';
import { registerErrorHandlers, renderClientError, renderError } from './http/errors.ts';
import { fhirRoutes } from './http/fhir-routes.ts';
import { publicRoot } from './http/public-url.ts';
import { SessionManager, type GymOptions, type TaskSource } from './gym/sessions.ts';
import { registerAuditHook } from './gym/audit-hook.ts';
import { registerEpisodeEndGuard } from './gym/episode-end.ts';
import { registerSessionPathGuard } from './gym/session-paths.ts';
import { gymRoutes } from './gym/routes.ts';
import { mcpRoutes } from './gym/mcp.ts';

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
}

export interface BuiltApp {
  app: FastifyInstance;
  context: ServerContext;
  sessions: SessionManager;
}

export function buildApp(options: AppOptions = {}): BuiltApp {
  // Built once per process and shared by every app in it (its index is built on first use, see sharedTerminology).
  const terminology = options.terminology ?? sharedTerminology();
  const search = createSearchService(terminology);
  const store = options.store ?? new Store({ path: options.dbPath ?? ':memory:', indexers: [search.indexer] });
  const operations = new OperationRegistry().register(validateOperation)
    .register(viewRunOperation).register(viewDefinitionRunOperation).register(sqlQueryRunOperation)
    .register(everythingOperation)
    .register(evidenceOperation)
    .register(lookupOperation)
    .register(expandOperation)
    .register(validateCodeOperation)
    .register(subsumesOperation)
    .register(translateOperation);
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
  app.register(fhirRoutes, { prefix: '/fhir', context, repositoryFor, publicRoot: root });
  app.register(fhirRoutes, { prefix: '/fhir/_session/:sessionId', context, repositoryFor, publicRoot: root });
  app.register(gymRoutes, { prefix: '/gym', sessions, root: app, adminToken: options.adminToken, publicRoot: root });
  app.register(mcpRoutes, { sessions, root: app });
  app.addHook('onClose', async () => {
    sessions.close();
    if (!options.store) store.close();
  });
  return { app, context, sessions };
}
