// `ehr-gym run`: variants x trials episodes per task, run with bounded concurrency, written as one JSON file per
// episode plus summary.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import cliProgress from 'cli-progress';
import { runEpisode } from './episode.ts';
import { summarize, type Summary } from './scoring.ts';
import { findVariants } from './variants.ts';
import type { Agent } from './agents/agent.ts';
import type { GymClient } from './gym-client.ts';
import type { EpisodeResult } from './types.ts';
import type { Task } from '../contracts/task.ts';

export interface RunOptions {
  tasks: Task[];
  agent: Agent;
  gym: GymClient;
  trials: number;
  concurrency: number;
  outDir?: string;
  progress?: boolean;
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
  for (const task of options.tasks) {
    variants[task.spec.id] = await findVariants(task, options.gym);
    if (variants[task.spec.id].length === 0) problems.push(`${task.spec.id}: no variant on this dataset`);
  }
  const jobs = options.tasks.flatMap((task) => variants[task.spec.id].flatMap((variant) =>
    Array.from({ length: options.trials }, (_, trial) => ({ task, variant, trial: trial + 1 }))));
  const bar = options.progress ? new cliProgress.SingleBar({ format: 'episodes [{bar}] {value}/{total} | passed {passed} | {task}', hideCursor: true, clearOnComplete: false }, cliProgress.Presets.shades_classic) : undefined;
  bar?.start(jobs.length, 0, { passed: 0, task: '' });
  let passed = 0;
  if (options.outDir) mkdirSync(join(options.outDir, 'episodes'), { recursive: true });
  const episodes = await pool(jobs, options.concurrency, async (job) => {
    const { result } = await runEpisode({ ...job, agent: options.agent, gym: options.gym });
    if (result.pass) passed++;
    if (options.outDir) writeFileSync(join(options.outDir, 'episodes', episodeFileName(result)), JSON.stringify(result, null, 2));
    bar?.increment(1, { passed, task: `${job.task.spec.id} ${job.variant} t${job.trial}` });
    return result;
  });
  bar?.stop();
  const summary = summarize(episodes, options.trials);
  if (options.outDir) {
    writeFileSync(join(options.outDir, 'summary.json'), JSON.stringify({
      agent: options.agent.name, trials: options.trials, variants, problems, summary,
      episodes: episodes.map((e) => ({ task: e.task, variant: e.variant, trial: e.trial, pass: e.pass, score: e.score, toolCalls: e.toolCalls, file: `episodes/${episodeFileName(e)}` })),
    }, null, 2));
  }
  return { episodes, summary, variants, problems };
}
