// Where episodes run: a running server (--server URL), or an in-process one (buildApp + listen on port 0) over an
// in-memory or given database, seeded with the default population when asked for patients.
import { datasetMetadata, ensureDefaultPopulation } from '../seed/index.ts';
import { buildApp } from '../server/app.ts';
import { noClientLimits } from '../server/gym/sessions.ts';
import { defaultTaskService, TaskFolderService } from './task-service.ts';

export interface BenchServer {
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  close(): Promise<void>;
  /** What the in-process server was seeded with, if anything. */
  seeded?: string;
  /** True when the server runs in this process (this checkout's code). */
  inProcess: boolean;
  /** The in-process server's population (from the database's dataset metadata), if it has one. */
  population?: { seed: number; patients: number; resources?: number };
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

export async function startBenchServer(options: ServerOptions = {}): Promise<BenchServer> {
  if (options.server) return { url: options.server.replace(/\/+$/, '').replace(/\/fhir$/, ''), close: async () => undefined, inProcess: false };
  const tasks = options.tasksDir ? new TaskFolderService(options.tasksDir) : defaultTaskService();
  // The runner's own server, one client: no per-client session limits.
  const { app, context } = buildApp({ dbPath: options.dbPath ?? ':memory:', gym: { maxSessions: 10_000, ...noClientLimits }, ...(tasks ? { tasks } : {}) });
  let seeded: string | undefined;
  if ((options.patients ?? 0) > 0) {
    // A static import, and a failed seed stops the start (the app closed) instead of serving an empty database.
    try {
      ensureDefaultPopulation(context.store, { patients: options.patients!, seed: options.seed ?? 1, progress: options.seedProgress ?? false });
    } catch (error) {
      await app.close();
      throw error;
    }
    seeded = `${options.patients} patients (seed ${options.seed ?? 1})`;
  }
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const meta = datasetMetadata(context.store);
  const population = meta ? { seed: meta.seed, patients: meta.patients, resources: meta.resources } : undefined;
  return { url, close: () => app.close(), inProcess: true, ...(seeded ? { seeded } : {}), ...(population ? { population } : {}) };
}
