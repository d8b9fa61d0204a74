// The soak benchmark's server: `ehr-gym serve` as a child process on a database file, so the benchmark can
// `kill -9` it mid-load and start it again on the same file, and read its resident memory from /proc.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  /** http://127.0.0.1:PORT */
  root: string;
}

/**
 * Starts bench/soak-child.ts (`ehr-gym serve` with a time budget argument) on `db` with node itself, not npx, so
 * the pid is the server's and a SIGKILL reaches it; resolves once it prints its address. An empty database is
 * seeded with `patients` first. `budgetMs` undefined: the server's default budget.
 */
export function startServer(db: string, patients: number, budgetMs: number | undefined, readWorkers: number): Promise<ServerProcess> {
  const args = ['--import', 'tsx', 'bench/soak-child.ts', db, String(patients), budgetMs === undefined ? 'default' : String(budgetMs), String(readWorkers)];
  const child = spawn(process.execPath, args, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const onExit = (code: number | null) => reject(new Error(`the server exited (${code}) before listening: ${err.slice(-500)}`));
    child.once('exit', onExit);
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /server at (http:\/\/[^\s/]+)\/fhir/.exec(out);
      if (match) {
        child.off('exit', onExit);
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume();
        resolve({ child, pid: child.pid!, root: match[1] });
      }
    });
  });
}

/** `kill -9`: resolves when the process is gone. */
export function killHard(server: ServerProcess): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolve();
    server.child.once('exit', () => resolve());
    server.child.kill('SIGKILL');
  });
}

/** A graceful stop at the end (SIGTERM, then SIGKILL after 5 s). */
export function stop(server: ServerProcess): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolve();
    const timer = setTimeout(() => server.child.kill('SIGKILL'), 5000);
    server.child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    server.child.kill('SIGTERM');
  });
}

/** Resident set size of a process in MiB (VmRSS in /proc/PID/status), or undefined once it is gone. */
export function rssMiB(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}
