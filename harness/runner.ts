// `ehr-gym run`: variants x trials episodes per task, run with bounded concurrency, written as one JSON file per
// episode plus summary.json (the run's settings, provenance, totals, per-task table, failed and infrastructure-ended
// episodes). Progress is a bar on a terminal and one plain line per episode otherwise (CI logs, pipes).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import cliProgress from 'cli-progress';
import { runEpisode } from './episode.ts';
import { summarize, type Summary } from './scoring.ts';
import { findVariants } from './variants.ts';
import { taskInSplit, taskSplit, variantInSplit, type SplitFilter } from '../contracts/splits.ts';
import type { Agent } from './agents/agent.ts';
import type { GymClient } from './gym-client.ts';
import type { RunProvenance } from './provenance.ts';
import type { EpisodeResult, Price } from './types.ts';
import type { Task } from '../contracts/task.ts';
import { episodeSeed, type PerturbationRequest } from '../contracts/perturbations.ts';

export interface RunOptions {
  tasks: Task[];
  agent: Agent;
  gym: GymClient;
  trials: number;
  concurrency: number;
  outDir?: string;
  /** A bar (terminal) or a line per finished episode (`lines`, for pipes); none when absent. */
  progress?: 'bar' | 'lines';
  /** Where progress lines go (default stderr). */
  progressLine?: (line: string) => void;
  /** The server and population, recorded with every episode and in summary.json. */
  provenance?: RunProvenance;
  price?: Price;
  /** The run's settings as given (flags), for summary.json. */
  settings?: Record<string, unknown>;
  /** Only the variants of this split (contracts/splits.ts); tasks without one are left out, not problems. */
  split?: SplitFilter;
  /**
   * Every episode's session perturbed so (server/gym/perturbations.ts), its seed drawn per episode from this one
   * (contracts/perturbations.ts episodeSeed); recorded with each episode.
   */
  perturbations?: PerturbationRequest;
  /** The variants to run per task (another run's `variants`), instead of finding them. */
  variants?: Record<string, string[]>;
}

export interface RunResult {
  episodes: EpisodeResult[];
  summary: Summary;
  variants: Record<string, string[]>;
  /** Tasks that could not run (no variant on this dataset). */
  problems: string[];
}

/** Run `work` over `items` with at most `limit` in flight; results in input order. */
export async function pool<T, R>(items: T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

export function episodeFileName(e: Pick<EpisodeResult, 'task' | 'variant' | 'trial'>): string {
  return `${e.task.replace(/\//g, '__')}__${e.variant}__t${e.trial}.json`;
}

export async function runBenchmark(options: RunOptions): Promise<RunResult> {
  const variants: Record<string, string[]> = {};
  const problems: string[] = [];
  const split = options.split;
  for (const task of options.tasks) {
    if (options.variants) {
      if (options.variants[task.spec.id]) variants[task.spec.id] = options.variants[task.spec.id];
      continue;
    }
    if (split !== undefined && !taskInSplit(taskSplit(task.spec), split)) continue;
    const found = await findVariants(task, options.gym);
    if (found.length === 0) problems.push(`${task.spec.id}: no variant on this dataset`);
    const chosen = split === undefined ? found : found.filter((v) => variantInSplit(taskSplit(task.spec), v, split));
    if (chosen.length > 0 || split === undefined) variants[task.spec.id] = chosen;
  }
  const jobs = options.tasks.flatMap((task) => (variants[task.spec.id] ?? []).flatMap((variant) =>
    Array.from({ length: options.trials }, (_, trial) => ({ task, variant, trial: trial + 1 }))));
  const bar = options.progress === 'bar' ? new cliProgress.SingleBar({ format: 'episodes [{bar}] {value}/{total} | passed {passed} | {task}', hideCursor: true, clearOnComplete: false }, cliProgress.Presets.shades_classic) : undefined;
  bar?.start(jobs.length, 0, { passed: 0, task: '' });
  let passed = 0;
  let done = 0;
  const line = options.progressLine ?? ((text: string) => process.stderr.write(`${text}\n`));
  if (options.outDir) mkdirSync(join(options.outDir, 'episodes'), { recursive: true });
  const startedAt = new Date().toISOString();
  const clock = performance.now();
  const episodes = await pool(jobs, options.concurrency, async (job) => {
    const { result } = await runEpisode({
      ...job, agent: options.agent, gym: options.gym, ...(options.provenance ? { provenance: options.provenance } : {}), ...(options.price ? { price: options.price } : {}),
      ...(options.perturbations ? { perturbations: { ...options.perturbations, seed: episodeSeed(options.perturbations.seed ?? 0, job.task.spec.id, job.variant, job.trial) } } : {}),
    });
    if (result.pass) passed++;
    done++;
    if (options.outDir) writeFileSync(join(options.outDir, 'episodes', episodeFileName(result)), JSON.stringify(result, null, 2));
    const name = `${job.task.spec.id} ${job.variant} t${job.trial}`;
    bar?.increment(1, { passed, task: name });
    if (options.progress === 'lines') {
      const how = result.outcome === 'infra_error' ? `INFRA ERROR ${result.infraError}` : `${result.outcome} (score ${(result.score * 100).toFixed(0)}%)`;
      line(`[${done}/${jobs.length}] ${name}: ${how}, ${(result.durationMs / 1000).toFixed(1)} s`);
    }
    return result;
  });
  bar?.stop();
  const summary = summarize(episodes, options.trials);
  if (options.outDir) {
    writeFileSync(join(options.outDir, 'summary.json'), JSON.stringify({
      agent: options.agent.name, trials: options.trials, concurrency: options.concurrency,
      settings: { ...options.settings, ...(episodes.find((e) => e.settings)?.settings ? { model: episodes.find((e) => e.settings)!.settings } : {}) },
      ...(options.price ? { price: options.price } : {}), ...(options.provenance ? { provenance: options.provenance } : {}),
      startedAt, endedAt: new Date().toISOString(), wallTimeMs: Math.round(performance.now() - clock),
      variants, problems, summary,
      episodes: episodes.map((e) => ({
        task: e.task, variant: e.variant, trial: e.trial, outcome: e.outcome, pass: e.pass, score: e.score, toolCalls: e.toolCalls,
        durationMs: e.durationMs, ...(e.tokens ? { tokens: e.tokens } : {}), ...(e.cost !== undefined ? { cost: e.cost } : {}),
        ...(e.error ? { error: e.error } : {}), ...(e.infraError ? { infraError: e.infraError } : {}), file: `episodes/${episodeFileName(e)}`,
      })),
    }, null, 2));
  }
  return { episodes, summary, variants, problems };
}
