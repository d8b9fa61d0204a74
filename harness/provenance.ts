// Where a run's episodes ran, recorded with each: the server (software and version from its CapabilityStatement; the
// git commit when it is this checkout running in-process), its population (seed and size) and the task's version.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './task-loader.ts';
import type { Provenance } from './types.ts';
import type { Task } from '../contracts/task.ts';

/** The run-wide part of an episode's provenance. */
export type RunProvenance = Omit<Provenance, 'taskVersion' | 'graderVersion'>;

/** A digest of the task's task.json (its instruction, checkpoints, binding, weights): equal versions pose the same task. */
export function taskVersion(task: Task): string {
  return createHash('sha256').update(readFileSync(join(task.dir, 'task.json'))).digest('hex').slice(0, 12);
}

/** This checkout's commit (with `-dirty` when it has local changes), if git can tell. */
export function checkoutCommit(): string | undefined {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() !== '';
    return `${commit}${dirty ? '-dirty' : ''}`;
  } catch {
    return undefined;
  }
}

/**
 * The server's side: name and version from GET /fhir/metadata; `inProcess` servers run this checkout, so their commit
 * is this checkout's; a remote server's population is what it was started with, unknown here unless given.
 */
export async function runProvenance(url: string, options: { inProcess: boolean; population?: Provenance['population'] }): Promise<RunProvenance> {
  let software: { name?: string; version?: string } | undefined;
  try {
    const response = await fetch(`${url}/fhir/metadata`, { headers: { accept: 'application/fhir+json' } });
    if (response.ok) software = ((await response.json()) as { software?: { name?: string; version?: string } }).software;
  } catch {
    software = undefined;
  }
  const commit = options.inProcess ? checkoutCommit() : undefined;
  return {
    server: { url, ...(software?.name ? { software: software.name } : {}), ...(software?.version ? { version: software.version } : {}), ...(commit ? { commit } : {}) },
    ...(options.population ? { population: options.population } : {}),
  };
}
