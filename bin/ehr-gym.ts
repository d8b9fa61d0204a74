// The ehr-gym command line.
import { Command, InvalidArgumentError } from 'commander';
import { availableParallelism } from 'node:os';
import { REPLICA_ID } from '../server/gym/session-id.ts';
import { nginxConfig } from '../server/gym/replicas.ts';
import { serve, stopOnSignals } from '../server/main.ts';
import { logLevels, type LogLevel } from '../server/app.ts';
import { registerBenchmarkCommands, registerToolCommands } from '../harness/cli.ts';
import { registerGradeCommand } from '../harness/grade-command.ts';
import { registerResultCommands } from '../harness/report/commands.ts';

function logLevel(value: string): LogLevel {
  if (!(logLevels as readonly string[]).includes(value)) throw new InvalidArgumentError(`one of ${logLevels.join(', ')}`);
  return value as LogLevel;
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is a whole number from 0 to 65535');
  return n;
}

const program = new Command('ehr-gym').description('A FHIR R4 mock EHR and benchmark gym for physician agents');

program
  .command('serve')
  .description('serve the FHIR API (base http://HOST:PORT/fhir, or the --base-url)')
  .option('--port <port>', 'port to listen on (env PORT)', port, Number(process.env.PORT ?? 8080))
  .option('--host <host>', 'interface to listen on', process.env.HOST ?? '127.0.0.1')
  .option('--db <path>', 'SQLite database file', process.env.EHR_GYM_DB ?? 'data/ehr-gym.sqlite')
  .option('--base-url <url>', 'the public URL clients reach the server at, used in every absolute URL it answers with (env EHR_GYM_BASE_URL; default the listening address)', process.env.EHR_GYM_BASE_URL || undefined)
  .option('--trust-proxy <proxies>', 'believe X-Forwarded-For from these proxies (comma-separated addresses or CIDRs, or "true" for any) when telling clients apart (env EHR_GYM_TRUST_PROXY)', process.env.EHR_GYM_TRUST_PROXY || undefined)
  .option('--max-sessions <n>', 'live gym sessions at once, over all clients', positiveInt, 1000)
  .option('--max-sessions-per-client <n>', 'live gym sessions one client may hold', positiveInt, 100)
  .option('--session-creates-per-minute <n>', 'sessions one client may create a minute, after a burst of 60', positiveInt, 120)
  .option('--patients <n>', 'size of the default population built into an empty database (seed 1)', positiveInt, 250)
  .option('--read-workers <n>', 'worker threads answering searches and other heavy reads, each with its own read-only connection; 0: all on the main thread (env EHR_GYM_READ_WORKERS; default the CPU count, at least 2; unused with --db :memory:)', nonNegativeInt, defaultReadWorkers())
  .option('--replica-id <id>', 'run as one replica of several behind a load balancer: session ids start with this id (1-16 lower-case letters or digits) so it can route them here; see `ehr-gym nginx-config` (env EHR_GYM_REPLICA_ID)', replicaId, process.env.EHR_GYM_REPLICA_ID || undefined)
  .option('--log-level <level>', `JSON log lines on stdout at this level and above: ${logLevels.join(', ')} (env EHR_GYM_LOG_LEVEL)`, logLevel, (process.env.EHR_GYM_LOG_LEVEL as LogLevel | undefined) ?? 'warn')
  .action(async (opts: { port: number; host: string; db: string; baseUrl?: string; trustProxy?: string; maxSessions: number; maxSessionsPerClient: number; sessionCreatesPerMinute: number; patients: number; readWorkers: number; replicaId?: string; logLevel: LogLevel }) => {
    const { mkdirSync } = await import('node:fs');
    const { dirname } = await import('node:path');
    // A malformed base URL (from the flag or the environment) stops the server before it seeds or listens.
    const { isUnspecified, parseBaseUrl } = await import('../server/http/public-url.ts');
    if (opts.baseUrl !== undefined) {
      try {
        parseBaseUrl(opts.baseUrl);
      } catch (err) {
        program.error(`error: --base-url / EHR_GYM_BASE_URL: ${(err as Error).message}`);
      }
    }
    if (opts.db !== ':memory:') mkdirSync(dirname(opts.db), { recursive: true });
    // First start: build the default population (250 patients unless --patients, seed 1) into an empty database, then serve it.
    const { Store } = await import('../resources/storage/store.ts');
    const { createSearchIndexer } = await import('../resources/search/index.ts');
    const { ensureDefaultPopulation } = await import('../seed/index.ts');
    const seedStore = new Store({ path: opts.db, indexers: [createSearchIndexer()] });
    ensureDefaultPopulation(seedStore, { patients: opts.patients, seed: 1, progress: true });
    const inMemory = opts.db === ':memory:';
    if (!inMemory) seedStore.close();
    // POST /gym/sessions {task, variant}, the task catalogue and grading use the tasks folder when there is one.
    const tasks = (await import('../harness/task-service.ts')).defaultTaskService();
    // The operator token for GET /gym/sessions, from the environment only (see server/gym/operator-token.ts).
    const { ADMIN_TOKEN_ENV } = await import('../server/gym/operator-token.ts');
    const adminToken = process.env[ADMIN_TOKEN_ENV] || undefined;
    const trustProxy = opts.trustProxy === undefined ? undefined : opts.trustProxy === 'true' ? true : opts.trustProxy.split(',').map((s) => s.trim());
    const { app, address } = await serve({
      logLevel: opts.logLevel,
      port: opts.port, host: opts.host, dbPath: opts.db, ...(inMemory ? { store: seedStore } : {}), ...(tasks ? { tasks } : {}), adminToken,
      ...(opts.baseUrl !== undefined ? { baseUrl: opts.baseUrl } : {}), ...(trustProxy !== undefined ? { trustProxy } : {}),
      gym: {
        maxSessions: opts.maxSessions, maxSessionsPerClient: opts.maxSessionsPerClient, sessionCreatesPerMinute: opts.sessionCreatesPerMinute,
        ...(opts.replicaId !== undefined ? { replicaId: replicaId(opts.replicaId) } : {}),
      },
      readPool: { workers: opts.readWorkers },
    });
    stopOnSignals(app);
    const base = opts.baseUrl !== undefined ? parseBaseUrl(opts.baseUrl) : address;
    console.log(`ehr-gym FHIR R4 server at ${base}/fhir${opts.baseUrl !== undefined ? ` (listening at ${address})` : ''}`);
    if (opts.baseUrl === undefined && isUnspecified(opts.host)) {
      console.log(`Listening on every interface: links in answers say localhost; set --base-url (or EHR_GYM_BASE_URL) to the URL clients use`);
    }
    console.log(`GET /gym/sessions (every session's id) and the default session's log, changes, reset: ${adminToken ? `operator only, Authorization: Bearer $${ADMIN_TOKEN_ENV}` : `disabled; set ${ADMIN_TOKEN_ENV} to enable them for the operator`}`);
  });

program
  .command('seed')
  .description('generate the synthetic population (deterministic per --patients and --seed) into the database and/or NDJSON')
  .option('--patients <n>', 'number of patients', positiveInt, 250)
  .option('--seed <s>', 'random seed', nonNegativeInt, 1)
  .option('--db <path>', 'SQLite database to load into (its base layer is replaced); the default database unless --ndjson or --card is given')
  .option('--ndjson <dir>', 'also write FHIR Bulk Data NDJSON, one file per resource type')
  .option('--stats', 'print the dataset card (and store it in the dataset metadata)')
  .option('--card <file>', 'write the dataset card to this Markdown file (implies --stats)')
  .option('--clean', 'turn the messy-EHR realism off')
  .option('--reference-date <instant>', 'the dataset reference date (ISO instant)')
  .action(async (opts: { patients: number; seed: number; db?: string; ndjson?: string; stats?: boolean; card?: string; clean?: boolean; referenceDate?: string }) => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const { dirname } = await import('node:path');
    const { seedPopulation } = await import('../seed/index.ts');
    if (opts.referenceDate !== undefined && Number.isNaN(Date.parse(opts.referenceDate))) throw new InvalidArgumentError('--reference-date must be an ISO instant');
    // The database is loaded when --db is given, or when no other output (--ndjson, --card) is asked for.
    const dbPath = opts.db ?? (opts.ndjson || opts.card ? undefined : process.env.EHR_GYM_DB ?? 'data/ehr-gym.sqlite');
    let store;
    if (dbPath) {
      const { Store } = await import('../resources/storage/store.ts');
      const { createSearchIndexer } = await import('../resources/search/index.ts');
      if (dbPath !== ':memory:') mkdirSync(dirname(dbPath), { recursive: true });
      store = new Store({ path: dbPath, indexers: [createSearchIndexer()] });
    }
    const started = performance.now();
    const result = seedPopulation({
      patients: opts.patients, seed: opts.seed, clean: opts.clean, referenceDate: opts.referenceDate, store,
      ndjsonDir: opts.ndjson, stats: opts.stats || !!opts.card, progress: process.stderr.isTTY,
    });
    store?.close();
    const seconds = (performance.now() - started) / 1000;
    console.error(`seeded ${result.metadata.patients} patients, ${result.metadata.resources} resources in ${seconds.toFixed(1)} s` +
      `${dbPath ? ` into ${dbPath}` : ''}${opts.ndjson ? ` and ${opts.ndjson}/` : ''}`);
    if (opts.card && result.card) {
      mkdirSync(dirname(opts.card), { recursive: true });
      writeFileSync(opts.card, result.card);
    }
    if (opts.stats && result.card) console.log(result.card);
  });

function replicaId(value: string): string {
  if (!REPLICA_ID.test(value)) throw new InvalidArgumentError('a replica id is 1-16 lower-case letters or digits');
  return value;
}

function replicaAddress(value: string, previous: { id: string; address: string }[] = []) {
  const match = /^([a-z0-9]{1,16})=([^=\s]+:\d{1,5})$/.exec(value);
  if (!match) throw new InvalidArgumentError('ID=HOST:PORT, e.g. r1=127.0.0.1:8081');
  return [...previous, { id: match[1], address: match[2] }];
}

program
  .command('nginx-config')
  .description('print an nginx configuration that routes each session to the replica that holds it (replicas: `serve --replica-id ID`)')
  .requiredOption('--replica <id=host:port>', 'a replica (repeat for each)', replicaAddress)
  .option('--listen <host:port>', 'where nginx listens', '127.0.0.1:8080')
  .action((opts: { replica: { id: string; address: string }[]; listen: string }) => {
    process.stdout.write(nginxConfig({ listen: opts.listen, replicas: opts.replica }));
  });

function defaultReadWorkers(): number {
  const fromEnv = process.env.EHR_GYM_READ_WORKERS;
  return fromEnv !== undefined && fromEnv !== '' ? nonNegativeInt(fromEnv) : Math.max(2, availableParallelism());
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number >= 1');
  return n;
}

function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number >= 0');
  return n;
}

registerBenchmarkCommands(program);
registerToolCommands(program);
registerGradeCommand(program);
registerResultCommands(program);

await program.parseAsync(process.argv);
