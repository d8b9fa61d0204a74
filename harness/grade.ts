// Grading an episode: one check per checkpoint over the session's final state, changes, audit log and submission.
// A checkpoint either has a function in grader.ts or declares `standard` checks that the library runs
// (graders/lib/standard-checks.ts). A check that throws fails its checkpoint loudly (evidence "grader error: ..."),
// never silently.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runStandardChecks } from '../graders/lib/standard-checks.ts';
import { codeLookupMisses, failureCategory } from './failures.ts';
import { checkpointScore, episodePasses } from './scoring.ts';
import type { FhirClient } from '../contracts/fhir-client.ts';
import type { AuditEntry, ResourceChange } from '../contracts/gym-api.ts';
import type { CodeLookupMiss } from './types.ts';
import type { Check, Checkpoint, CheckResult, GraderContext, Task, Verdict } from '../contracts/task.ts';

function checkOf(task: Task, checkpoint: Checkpoint): Check {
  const own = task.grader.checks[checkpoint.id] as Check | undefined;
  if (checkpoint.standard !== undefined) {
    if (own) throw new Error(`checkpoint '${checkpoint.id}' has both standard checks and a check in grader.ts`);
    const spec = checkpoint.standard;
    return (ctx) => runStandardChecks(spec, ctx);
  }
  if (!own) throw new Error(`no check for checkpoint '${checkpoint.id}'`);
  return own;
}

export async function grade(task: Task, ctx: GraderContext): Promise<Verdict[]> {
  const verdicts: Verdict[] = [];
  for (const checkpoint of task.spec.checkpoints) {
    let result: CheckResult;
    try {
      result = await checkOf(task, checkpoint)(ctx);
      if (!result || typeof result.pass !== 'boolean') throw new Error('the check returned no {pass, evidence}');
    } catch (err) {
      result = { pass: false, evidence: [`grader error: ${(err as Error).stack ?? String(err)}`], failure: 'grader_error' };
    }
    const score = Math.min(1, Math.max(0, result.score ?? (result.pass ? 1 : 0)));
    verdicts.push({
      id: checkpoint.id,
      category: checkpoint.category,
      weight: checkpoint.weight,
      critical: checkpoint.critical ?? false,
      pass: result.pass,
      score,
      evidence: Array.isArray(result.evidence) ? result.evidence : [result.evidence],
      ...(result.failure ? { failure: result.failure } : {}),
    });
  }
  return verdicts;
}

/** What an episode left behind for its grader: the session's start, the variant's patient, the answer, the record. */
export interface EpisodeEvidence {
  /** The session clock's start (the task's `now` as the session reported it). */
  now: string;
  /** The variant's patient id ('' for population tasks). */
  patient: string;
  answer: unknown;
  files: Record<string, string>;
  /** The audit log as it stood when the episode ended (the grader's own requests come after it). */
  log: AuditEntry[];
  changes: ResourceChange[];
  /** The agent's own failure, if any (it decides some failure categories). */
  error?: string;
}

/** What an episode file holds for `ehr-gym grade --results` besides its log, changes and answer. */
export interface RegradeFields {
  /** The session clock's start the grader was given. */
  now: string;
  /** Files submitted with the answer. */
  files?: Record<string, string>;
  /** The grading that gave the file's verdicts (graderVersion below). */
  graderVersion: string;
}

/** The graded episode: verdicts with failure categories, pass, checkpoint score and what they were judged on. */
export interface EpisodeGrade {
  pass: boolean;
  /** Weighted checkpoint score in [0, 1]. */
  score: number;
  verdicts: Verdict[];
  answer: unknown;
  writes: number;
  toolCalls: number;
  codeLookupMisses: CodeLookupMiss[];
  codeLookupCheckError?: string;
  graderVersion: string;
}

/**
 * The one grading path: `ehr-gym run` (harness/episode.ts), `POST /gym/sessions/{id}/grade` (harness/task-service.ts)
 * and `ehr-gym grade` all come here, so a session graded over HTTP gets the verdicts the runner would give it.
 * `fhir` reads the final state of the episode's session.
 */
export async function gradeEpisode(task: Task, fhir: FhirClient, evidence: EpisodeEvidence): Promise<EpisodeGrade> {
  const { log } = evidence;
  const verdicts = await grade(task, {
    fhir, patient: evidence.patient, now: evidence.now, task: task.spec,
    answer: evidence.answer, files: evidence.files, log, changes: evidence.changes,
  });
  let codeLookupCheckError: string | undefined;
  const misses = await codeLookupMisses(log, fhir).catch((err: Error) => {
    codeLookupCheckError = err.message;
    return [];
  });
  const base = {
    answer: evidence.answer, writes: log.filter((e) => e.write).length, codeLookupMisses: misses, toolCalls: log.length,
    ...(codeLookupCheckError ? { codeLookupCheckError } : {}),
  };
  const judged = { ...base, ...(evidence.error ? { error: evidence.error } : {}) };
  for (const v of verdicts) if (!v.pass) v.failure = failureCategory(v, judged);
  return { pass: episodePasses(verdicts), score: checkpointScore(verdicts), verdicts, ...base, graderVersion: graderVersion(task) };
}

const here = dirname(fileURLToPath(import.meta.url));
/** The code every task's grading runs: the grading library and this path (grading, failure categories, scores). */
const sharedGradingCode = [join(here, '..', 'graders'), join(here, 'grade.ts'), join(here, 'failures.ts'), join(here, 'scoring.ts')];
let sharedDigest: string | undefined;
const versions = new Map<string, string>();

/**
 * The version of a task's grading: the package version and a digest of what decides its verdicts (task.json, the
 * task's grader.ts, the grading library, this path). Equal versions grade equal evidence equally; a grader fix changes
 * it, so a re-graded run says which grading it had.
 */
export function graderVersion(task: Task): string {
  let version = versions.get(task.dir);
  if (!version) {
    sharedDigest ??= digestFiles(sharedGradingCode.flatMap(filesUnder));
    const own = digestFiles([join(task.dir, 'task.json'), join(task.dir, 'grader.ts')].filter((f) => existsSync(f)));
    version = `${packageVersion()}+${createHash('sha256').update(sharedDigest).update(own).digest('hex').slice(0, 12)}`;
    versions.set(task.dir, version);
  }
  return version;
}

function filesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|json)$/.test(f) && !f.split(sep).includes('node_modules'))
    .map((f) => join(path, f));
}

function digestFiles(files: string[]): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort()) hash.update(relative(join(here, '..'), file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(here, '..', 'package.json'), 'utf8')) as { version: string }).version;
}
