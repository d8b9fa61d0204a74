// Where episodes run: a running server (--server URL), or an in-process one (buildApp + listen on port 0) over an
// in-memory or given database, seeded with the default population when the seed module provides it.
import { buildApp } from '../server/app.ts';
import { noClientLimits } from '../server/gym/sessions.ts';
import { defaultTaskSource, TaskFolderSource } from './task-source.ts';

export interface BenchServer {
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  close(): Promise<void>;
  /** What the in-process server was seeded with, if anything. */
  seeded?: string;
}

export interface ServerOptions {
  server?: string;
  dbPath?: string;
  /** Patients to seed in-process (0: none). */
  patients?: number;
  seed?: number;
  /** Show the seed's progress bar. */
  seedProgress?: boolean;
  /** The tasks folder the in-process server resolves `{task, variant}` sessions from (default: the repository's). */
  tasksDir?: string;
}

type Seeder = (store: unknown, options: { patients: number; seed: number; progress: boolean }) => unknown;

/** The seed module's ensureDefaultPopulation, when it has landed (seed/index.ts). */
async function findSeeder(): Promise<Seeder | undefined> {
  for (const path of ['../seed/index.ts']) {
    try {
      const module = (await import(path)) as { ensureDefaultPopulation?: Seeder };
      if (typeof module.ensureDefaultPopulation === 'function') return module.ensureDefaultPopulation;
    } catch {
      // not there yet
    }
  }
  return undefined;
}

export async function startBenchServer(options: ServerOptions = {}): Promise<BenchServer> {
  if (options.server) return { url: options.server.replace(/\/+$/, '').replace(/\/fhir$/, ''), close: async () => undefined };
  const tasks = options.tasksDir ? new TaskFolderSource(options.tasksDir) : defaultTaskSource();
  // The runner's own server, one client: no per-client session limits.
  const { app, context } = buildApp({ dbPath: options.dbPath ?? ':memory:', gym: { maxSessions: 10_000, ...noClientLimits }, ...(tasks ? { tasks } : {}) });
  let seeded: string | undefined;
  if ((options.patients ?? 0) > 0) {
    const seeder = await findSeeder();
    if (seeder) {
      seeder(context.store, { patients: options.patients!, seed: options.seed ?? 1, progress: options.seedProgress ?? false });
      seeded = `${options.patients} patients (seed ${options.seed ?? 1})`;
    }
  }
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close(), ...(seeded ? { seeded } : {}) };
}
