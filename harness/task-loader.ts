// Tasks are discovered, never registered: every tasks/**/task.json is a task, validated by tasks/schema.json, with
// solution.ts and grader.ts beside it.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import picomatch from 'picomatch';
import { globSync } from 'tinyglobby';
import { standardSpecProblems } from '../graders/lib/standard-checks.ts';
import type { GraderModule, Solution, Task, TaskSpec } from '../contracts/task.ts';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const defaultTasksDir = join(repoRoot, 'tasks');

let schemaValidator: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (!schemaValidator) {
    const schema = JSON.parse(readFileSync(join(repoRoot, 'tasks', 'schema.json'), 'utf8')) as Record<string, unknown>;
    schemaValidator = new Ajv({ allErrors: true, strict: true }).compile(schema);
  }
  return schemaValidator;
}

/** Problems of a task.json against the schema and the folder it lives in (empty when valid). */
export function taskSpecProblems(spec: unknown, folderId?: string): string[] {
  const validate = validator();
  const problems = validate(spec) ? [] : (validate.errors ?? []).map(describeError);
  if (problems.length > 0) return problems;
  const task = spec as TaskSpec;
  if (folderId !== undefined && task.id !== folderId) problems.push(`id '${task.id}' must equal the folder path '${folderId}'`);
  if (task.specialty !== task.id.split('/')[0]) problems.push(`specialty '${task.specialty}' must be the first part of the id`);
  const ids = task.checkpoints.map((c) => c.id);
  for (const id of new Set(ids.filter((id, i) => ids.indexOf(id) !== i))) problems.push(`checkpoint id '${id}' is repeated`);
  if (task.level === 'patient' && !task.binding.fixture && !task.binding.candidates && !task.binding.criteria?.length && !task.binding.select) {
    problems.push('a patient-level task needs a binding: fixture, candidates, criteria or select');
  }
  return problems;
}

function describeError(e: ErrorObject): string {
  const extra = e.keyword === 'additionalProperties' ? ` '${(e.params as { additionalProperty: string }).additionalProperty}'` : '';
  return `${e.instancePath || '(root)'} ${e.message}${extra}`;
}

/**
 * Whether a task id (`<specialty>/<slug>`) matches a --tasks pattern: a glob (`*` within one segment, `**` across
 * segments), a task id, or a task path (`tasks/<id>/task.json`); a pattern without a slash also matches the slug.
 */
export function matchesGlob(taskId: string, pattern: string): boolean {
  const cleaned = pattern.replace(/^tasks\//, '').replace(/\/task\.json$/, '').replace(/\/+$/, '');
  if (cleaned === '' || cleaned === '**' || cleaned === '*') return true;
  const matches = picomatch(cleaned);
  return matches(taskId) || (!cleaned.includes('/') && matches(taskId.split('/')[1] ?? ''));
}

/** Folder ids (`<specialty>/<slug>`) of every task.json under `tasksDir`, sorted (dot folders and node_modules skipped). */
export function discoverTaskIds(tasksDir = defaultTasksDir): string[] {
  if (!existsSync(tasksDir)) return [];
  const files = globSync('**/task.json', { cwd: tasksDir, ignore: ['**/node_modules/**'] });
  return files.map((file) => file.slice(0, -'task.json'.length).replace(/\/$/, '')).sort();
}

export function selectTaskIds(patterns: string[] | undefined, tasksDir = defaultTasksDir): string[] {
  const all = discoverTaskIds(tasksDir);
  if (!patterns || patterns.length === 0) return all;
  return all.filter((id) => patterns.some((p) => matchesGlob(id, p)));
}

export class TaskLoadError extends Error {
  constructor(readonly taskId: string, readonly problems: string[]) {
    super(`task ${taskId}: ${problems.join('; ')}`);
  }
}

export function readTaskSpec(taskId: string, tasksDir = defaultTasksDir): TaskSpec {
  const path = join(tasksDir, taskId, 'task.json');
  let spec: unknown;
  try {
    spec = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new TaskLoadError(taskId, [`task.json is not JSON: ${(err as Error).message}`]);
  }
  const problems = taskSpecProblems(spec, taskId);
  if (problems.length > 0) throw new TaskLoadError(taskId, problems);
  return spec as TaskSpec;
}

/** Load a task folder: spec (schema-checked), fixture, solution and grader modules. */
export async function loadTask(taskId: string, tasksDir = defaultTasksDir): Promise<Task> {
  const spec = readTaskSpec(taskId, tasksDir);
  const dir = join(tasksDir, taskId);
  const problems: string[] = [];
  let fixture: Task['fixture'];
  if (spec.binding.fixture) {
    try {
      fixture = JSON.parse(readFileSync(join(dir, spec.binding.fixture), 'utf8')) as Task['fixture'];
      if (fixture?.resourceType !== 'Bundle' || (fixture as { type?: string }).type !== 'transaction') problems.push(`${spec.binding.fixture} must be a transaction Bundle`);
    } catch (err) {
      problems.push(`fixture ${spec.binding.fixture}: ${(err as Error).message}`);
    }
  }
  const solutionModule = await importIfPresent(join(dir, 'solution.ts'), problems);
  const graderModule = await importIfPresent(join(dir, 'grader.ts'), problems);
  const solution = (solutionModule?.default ?? solutionModule?.solution) as Solution | undefined;
  if (solutionModule && typeof solution !== 'function') problems.push('solution.ts must export default async function (ctx)');
  const alternativeSolutions = solutionModule?.alternativeSolutions as Record<string, Solution> | undefined;
  if (alternativeSolutions !== undefined && (typeof alternativeSolutions !== 'object' || alternativeSolutions === null || Object.values(alternativeSolutions).some((f) => typeof f !== 'function'))) {
    problems.push('solution.ts: alternativeSolutions must map names to async functions (ctx)');
  }
  const grader = graderModule as unknown as GraderModule | undefined;
  if (graderModule && (typeof grader?.checks !== 'object' || grader.checks === null)) problems.push('grader.ts must export `checks`, one function per checkpoint id');
  if (grader?.checks) {
    // A checkpoint is graded by its function in grader.ts or by its declared standard checks: exactly one of them.
    for (const c of spec.checkpoints) {
      const hasCheck = typeof grader.checks[c.id] === 'function';
      if (c.standard !== undefined) {
        if (hasCheck) problems.push(`checkpoint '${c.id}' declares standard checks and has a check in grader.ts; keep one`);
        for (const p of standardSpecProblems(c.standard)) problems.push(`checkpoint '${c.id}' standard: ${p}`);
      } else if (!hasCheck) problems.push(`checkpoint '${c.id}' has no check in grader.ts and no standard checks`);
    }
    for (const id of Object.keys(grader.checks)) if (!spec.checkpoints.some((c) => c.id === id)) problems.push(`grader.ts checks '${id}', which is not a checkpoint`);
  }
  if (spec.binding.select && typeof grader?.select !== 'function') problems.push('binding.select is set but grader.ts exports no select(ctx)');
  if (problems.length > 0) throw new TaskLoadError(taskId, problems);
  return { spec, dir, ...(fixture ? { fixture } : {}), solution: solution!, ...(alternativeSolutions ? { alternativeSolutions } : {}), grader: grader! };
}

async function importIfPresent(path: string, problems: string[]): Promise<Record<string, unknown> | undefined> {
  if (!existsSync(path)) {
    problems.push(`${path.split(sep).slice(-1)[0]} is missing`);
    return undefined;
  }
  try {
    return (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (err) {
    problems.push(`${path.split(sep).slice(-1)[0]} failed to load: ${(err as Error).message}`);
    return undefined;
  }
}
