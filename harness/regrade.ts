// Re-grading stored episodes (`ehr-gym grade --results DIR`, harness/grade-command.ts) without running the agent again,
// so a grader fix reaches old runs (as `tau2 evaluate-trajs` does). An episode file keeps what grading reads besides the final
// state: the audit log, the changes, the answer and files, the session's start and the error the agent reported. The
// final state is rebuilt from them: a session of the task's variant (fixture and clock), then every changed resource
// written as it stood at the episode's end. The verdicts come from the runner's grading path (harness/grade.ts).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { FhirClient, FhirHttpError } from '../contracts/fhir-client.ts';
import type { AuditEntry, ResourceChange } from '../contracts/gym-api.ts';
import type { Task, Verdict } from '../contracts/task.ts';
import { gradeEpisode } from './grade.ts';
import type { GymClient } from './gym-client.ts';
import { defaultTasksDir, loadTask } from './task-loader.ts';
import { POPULATION_VARIANT } from './variants.ts';

/** The fields of an episode file (harness/runner.ts) that re-grading reads. */
export interface StoredEpisode {
  task: string;
  variant: string;
  trial: number;
  pass: boolean;
  score: number;
  verdicts: Verdict[];
  answer?: unknown;
  files?: Record<string, string>;
  /** The session clock's start; older files lack it (the runner always started sessions at the task's `now`). */
  now?: string;
  error?: string;
  /** Set by the runner for an episode the infrastructure ended: not the agent's, left as it is. */
  outcome?: string;
  graderVersion?: string;
  provenance?: { population?: { seed: number; patients: number } };
  log: AuditEntry[];
  changes: ResourceChange[];
}

/** One re-graded episode beside its stored grade. */
export interface Regraded {
  file: string;
  task: string;
  variant: string;
  trial: number;
  before: { pass: boolean; score: number; graderVersion?: string };
  after: { pass: boolean; score: number; graderVersion: string };
  /** Whether every verdict (pass, score, evidence, failure) came out as stored. */
  reproduced: boolean;
  /** Checkpoints whose verdict differs, with what differs. */
  changed: { id: string; before?: Verdict; after?: Verdict }[];
  /** The episode file with the new grade. */
  episode: StoredEpisode;
  /** Why it could not be re-graded (an infrastructure-ended episode, a task no longer there). */
  skipped?: string;
}

/** The episode files of a results folder (`episodes/*.json`, as `ehr-gym run --out` writes them), sorted. */
export function episodeFiles(dir: string): string[] {
  const folder = join(dir, 'episodes');
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    throw new InvalidArgumentError(`${dir} holds no episodes/ folder (the --out of ehr-gym run)`);
  }
  return names.filter((n) => n.endsWith('.json')).sort().map((n) => join(folder, n));
}

/** Re-grade every episode of a results folder against a server holding the run's population. */
export async function regradeResults(dir: string, gym: GymClient, options: { tasksDir?: string } = {}): Promise<Regraded[]> {
  const tasks = new Map<string, Promise<Task>>();
  const out: Regraded[] = [];
  for (const file of episodeFiles(dir)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as StoredEpisode;
    const before = { pass: stored.pass, score: stored.score, ...(stored.graderVersion ? { graderVersion: stored.graderVersion } : {}) };
    const base = { file, task: stored.task, variant: stored.variant, trial: stored.trial, before };
    if (stored.outcome === 'infra_error') {
      out.push({ ...base, after: { ...before, graderVersion: stored.graderVersion ?? '' }, reproduced: true, changed: [], episode: stored, skipped: 'infra_error: the episode never finished' });
      continue;
    }
    if (!tasks.has(stored.task)) tasks.set(stored.task, loadTask(stored.task, options.tasksDir ?? defaultTasksDir));
    const task = await tasks.get(stored.task)!;
    const graded = await regradeEpisode(task, stored, gym);
    const changed = diffVerdicts(stored.verdicts, graded.verdicts);
    const episode: StoredEpisode = { ...stored, pass: graded.pass, score: graded.score, verdicts: graded.verdicts, graderVersion: graded.graderVersion };
    out.push({ ...base, after: { pass: graded.pass, score: graded.score, graderVersion: graded.graderVersion }, reproduced: changed.length === 0, changed, episode });
  }
  return out;
}

/** Rebuild the episode's final state in a fresh session and grade the stored record against it. */
export async function regradeEpisode(task: Task, stored: StoredEpisode, gym: GymClient) {
  const now = stored.now ?? new Date(task.spec.now).toISOString();
  const session = await gym.createSession({ task: task.spec.id, variant: stored.variant, now, ...(task.fixture ? { fixture: task.fixture } : {}) });
  try {
    const fhir = new FhirClient(session.fhirBaseUrl);
    await replayChanges(fhir, stored.changes);
    return await gradeEpisode(task, fhir, {
      now, patient: stored.variant === POPULATION_VARIANT ? '' : stored.variant, answer: stored.answer, files: stored.files ?? {},
      log: stored.log, changes: stored.changes, ...(stored.error ? { error: stored.error } : {}),
    });
  } finally {
    await gym.deleteSession(session.id).catch(() => undefined);
  }
}

/**
 * Write each changed resource as it stood at the episode's end (update-as-create keeps its id) and delete what the
 * episode deleted, oldest write first. A write whose references point at a resource written later is retried after
 * the others, until a round makes no progress.
 */
export async function replayChanges(fhir: FhirClient, changes: ResourceChange[]): Promise<void> {
  const firstWrite = (c: ResourceChange) => c.versions[0]?.lastUpdated ?? '';
  let pending = changes.filter((c) => c.after !== null || c.before !== null)
    .sort((a, b) => firstWrite(a).localeCompare(firstWrite(b)));
  while (pending.length > 0) {
    const failed: [ResourceChange, Error][] = [];
    for (const change of pending) {
      try {
        if (change.after === null) await fhir.delete(change.type, change.id);
        else await fhir.update({ ...change.after, id: change.id });
      } catch (err) {
        if (!(err instanceof FhirHttpError) || err.status >= 500) throw err;
        failed.push([change, err]);
      }
    }
    if (failed.length === pending.length) {
      throw new Error(`the episode's changes cannot be rebuilt: ${failed.map(([c, e]) => `${c.type}/${c.id}: ${e.message}`).join('; ')}`);
    }
    pending = failed.map(([c]) => c);
  }
}

function diffVerdicts(before: Verdict[], after: Verdict[]): Regraded['changed'] {
  const ids = [...new Set([...before.map((v) => v.id), ...after.map((v) => v.id)])];
  const changed: Regraded['changed'] = [];
  for (const id of ids) {
    const b = before.find((v) => v.id === id);
    const a = after.find((v) => v.id === id);
    if (JSON.stringify(comparable(b)) !== JSON.stringify(comparable(a))) changed.push({ id, ...(b ? { before: b } : {}), ...(a ? { after: a } : {}) });
  }
  return changed;
}

/** A verdict's graded content in a fixed key order (files written by other versions may order keys differently). */
function comparable(v: Verdict | undefined) {
  return v && { id: v.id, category: v.category, weight: v.weight, critical: v.critical, pass: v.pass, score: v.score, evidence: v.evidence, failure: v.failure ?? null };
}

/** One line per episode, then the totals. */
export function formatRegrade(results: Regraded[]): string {
  const lines = results.map((r) => {
    const name = `${r.task} ${r.variant} t${r.trial}`;
    if (r.skipped) return `skipped     ${name}: ${r.skipped}`;
    if (r.reproduced) return `reproduced  ${name}: ${r.after.pass ? 'pass' : 'fail'}, score ${r.after.score.toFixed(3)}`;
    const what = r.changed.map((c) => `${c.id} ${c.before ? (c.before.pass ? 'pass' : 'fail') : '-'} -> ${c.after ? (c.after.pass ? 'pass' : 'fail') : '-'}`).join(', ');
    return `CHANGED     ${name}: ${r.before.pass ? 'pass' : 'fail'} ${r.before.score.toFixed(3)} -> ${r.after.pass ? 'pass' : 'fail'} ${r.after.score.toFixed(3)} (${what})`;
  });
  const graded = results.filter((r) => !r.skipped);
  const passed = graded.filter((r) => r.after.pass).length;
  lines.push('', `${graded.filter((r) => r.reproduced).length}/${graded.length} episode(s) reproduced their stored verdicts; ${passed}/${graded.length} pass after re-grading`
    + (results.length > graded.length ? `; ${results.length - graded.length} skipped` : ''));
  return lines.join('\n');
}

/** A session's grade from a running server, as text. */
export function formatSessionGrade(grade: { session: string; task: string; variant?: string; pass: boolean; score: number; graderVersion: string; verdicts: Verdict[] }): string {
  const lines = [`session ${grade.session}: ${grade.task}${grade.variant ? ` ${grade.variant}` : ''} ${grade.pass ? 'PASS' : 'FAIL'}, checkpoint score ${grade.score.toFixed(3)} (grader ${grade.graderVersion})`];
  for (const v of grade.verdicts) lines.push(`  ${v.pass ? 'pass' : 'FAIL'}  ${v.id} [${v.category}, weight ${v.weight}]${v.failure ? ` ${v.failure}` : ''}: ${v.evidence.join('; ')}`);
  return lines.join('\n');
}

/** The re-graded episode files (same names) and regrade.json: per episode the stored and the new grade. */
export function writeRegrade(out: string, source: string, results: Regraded[]): void {
  mkdirSync(join(out, 'episodes'), { recursive: true });
  for (const r of results) writeFileSync(join(out, 'episodes', r.file.split(/[\\/]/).pop()!), JSON.stringify(r.episode, null, 2));
  const graded = results.filter((r) => !r.skipped);
  writeFileSync(join(out, 'regrade.json'), JSON.stringify({
    source, episodes: results.map(({ episode: _episode, file, ...r }) => ({ ...r, file: `episodes/${file.split(/[\\/]/).pop()}` })),
    reproduced: graded.filter((r) => r.reproduced).length, graded: graded.length,
    pass1: graded.length === 0 ? 0 : graded.filter((r) => r.after.pass).length / graded.length,
  }, null, 2));
}
