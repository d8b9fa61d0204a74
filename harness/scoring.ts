// Scores of a run: pass@1 (an episode passes when every checkpoint passes), weighted checkpoint score, pass^k
// (tau-bench: mean over tasks of C(c,k)/C(n,k), n episodes and c passes per task), and breakdowns by specialty,
// workflow and checkpoint category, plus tool calls per episode and failure categories. Episodes the infrastructure
// ended (outcome `infra_error`: the model API failing after its retries, the gym server failing) are not scored: they
// are left out of every rate and denominator and counted apart, with their causes listed.
import type { CheckpointCategory, Verdict } from '../contracts/task.ts';
import type { EpisodeResult } from './types.ts';

/** Binomial coefficient C(n, k), exact for the sizes a benchmark sees. */
export function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return Math.round(r);
}

/** pass^k over tasks: each task's chance that k episodes drawn without replacement all pass, averaged over tasks. */
export function passHatK(perTask: { n: number; c: number }[], k: number): number | undefined {
  const eligible = perTask.filter((t) => t.n >= k);
  if (eligible.length === 0 || k < 1) return undefined;
  return eligible.reduce((sum, t) => sum + choose(t.c, k) / choose(t.n, k), 0) / eligible.length;
}

/** Weighted checkpoint score of one episode in [0, 1]: sum(weight * score) / sum(weight). */
export function checkpointScore(verdicts: Verdict[]): number {
  const total = verdicts.reduce((s, v) => s + v.weight, 0);
  return total === 0 ? 0 : verdicts.reduce((s, v) => s + v.weight * v.score, 0) / total;
}

export function episodePasses(verdicts: Verdict[]): boolean {
  return verdicts.length > 0 && verdicts.every((v) => v.pass);
}

export interface Breakdown {
  episodes: number;
  passRate: number;
  meanScore: number;
}

export interface CategoryBreakdown {
  checkpoints: number;
  passed: number;
  passRate: number;
}

/** One task's row of the per-task table. */
export interface TaskRow extends Breakdown {
  /** Scored episodes that pass. */
  passes: number;
  /** Episodes ended by the infrastructure (not in `episodes`, the scored count). */
  infraErrors: number;
  tokens: { prompt: number; completion: number };
  cost?: number;
  /** Mean wall time of an episode. */
  meanDurationMs: number;
}

/** A scored episode that failed, and the first checkpoint (in task order) it failed. */
export interface FailedEpisode {
  task: string;
  variant: string;
  trial: number;
  checkpoint?: string;
  failure?: string;
  error?: string;
}

export interface InfraErrorEpisode {
  task: string;
  variant: string;
  trial: number;
  infraError: string;
}

export interface Summary {
  /** Scored episodes (infrastructure errors excluded). */
  episodes: number;
  /** Episodes the infrastructure ended: excluded from every rate below. */
  infraErrors: number;
  tasks: number;
  /** Fraction of scored episodes that pass. */
  pass1: number;
  /** Mean weighted checkpoint score over episodes. */
  checkpointScore: number;
  /** Fraction of all checkpoint verdicts that pass (unweighted). */
  checkpointPassRate: number;
  passHatK: Record<string, number>;
  bySpecialty: Record<string, Breakdown>;
  byWorkflow: Record<string, Breakdown>;
  byCategory: Partial<Record<CheckpointCategory, CategoryBreakdown>>;
  byTask: Record<string, TaskRow>;
  toolCalls: { mean: number; min: number; max: number };
  failures: Record<string, number>;
  criticalFailures: number;
  /** Scored episodes with an agent error (crash, budget, truncated final reply). */
  agentErrors: number;
  /** Final replies cut at the output token limit (not graded as answers). */
  truncatedFinalReplies: number;
  /** Over every episode, infrastructure errors included (they cost tokens and time too). */
  tokens?: { prompt: number; completion: number };
  cost?: number;
  /** Sum of the episodes' wall times. */
  episodeTimeMs: number;
  /** Model requests retried. */
  retries: number;
  failedEpisodes: FailedEpisode[];
  infraErrorEpisodes: InfraErrorEpisode[];
}

function breakdown(episodes: EpisodeResult[]): Breakdown {
  return {
    episodes: episodes.length,
    passRate: mean(episodes.map((e) => (e.pass ? 1 : 0))),
    meanScore: mean(episodes.map((e) => e.score)),
  };
}

function mean(values: number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

function groupBy<T>(items: T[], keys: (item: T) => string[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) for (const key of keys(item)) out.set(key, [...(out.get(key) ?? []), item]);
  return new Map([...out.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

const isInfra = (e: EpisodeResult) => e.outcome === 'infra_error';

function tokenTotal(episodes: EpisodeResult[]): { prompt: number; completion: number } {
  return { prompt: episodes.reduce((s, e) => s + (e.tokens?.prompt ?? 0), 0), completion: episodes.reduce((s, e) => s + (e.tokens?.completion ?? 0), 0) };
}

function costTotal(episodes: EpisodeResult[]): number | undefined {
  const priced = episodes.filter((e) => e.cost !== undefined);
  return priced.length === 0 ? undefined : priced.reduce((s, e) => s + e.cost!, 0);
}

function taskRow(all: EpisodeResult[]): TaskRow {
  const scored = all.filter((e) => !isInfra(e));
  const cost = costTotal(all);
  return {
    ...breakdown(scored), passes: scored.filter((e) => e.pass).length, infraErrors: all.length - scored.length,
    tokens: tokenTotal(all), ...(cost !== undefined ? { cost } : {}), meanDurationMs: Math.round(mean(all.map((e) => e.durationMs ?? 0))),
  };
}

export function summarize(all: EpisodeResult[], maxK?: number): Summary {
  const episodes = all.filter((e) => !isInfra(e));
  const infra = all.filter(isInfra);
  const byTask = groupBy(episodes, (e) => [e.task]);
  const perTask = [...byTask.values()].map((list) => ({ n: list.length, c: list.filter((e) => e.pass).length }));
  const kMax = maxK ?? Math.max(0, ...perTask.map((t) => t.n));
  const passK: Record<string, number> = {};
  for (let k = 1; k <= kMax; k++) {
    const value = passHatK(perTask, k);
    if (value !== undefined) passK[String(k)] = value;
  }
  const verdicts = episodes.flatMap((e) => e.verdicts);
  const byCategory: Summary['byCategory'] = {};
  for (const [category, list] of groupBy(verdicts, (v) => [v.category])) {
    const passed = list.filter((v) => v.pass).length;
    byCategory[category as CheckpointCategory] = { checkpoints: list.length, passed, passRate: passed / list.length };
  }
  const failures: Record<string, number> = {};
  for (const v of verdicts) if (!v.pass) failures[v.failure ?? 'incorrect'] = (failures[v.failure ?? 'incorrect'] ?? 0) + 1;
  const calls = episodes.map((e) => e.toolCalls);
  const withTokens = all.filter((e) => e.tokens);
  const cost = costTotal(all);
  return {
    episodes: episodes.length,
    infraErrors: infra.length,
    tasks: new Set(all.map((e) => e.task)).size,
    pass1: mean(episodes.map((e) => (e.pass ? 1 : 0))),
    checkpointScore: mean(episodes.map((e) => e.score)),
    checkpointPassRate: verdicts.length === 0 ? 0 : verdicts.filter((v) => v.pass).length / verdicts.length,
    passHatK: passK,
    bySpecialty: Object.fromEntries([...groupBy(episodes, (e) => [e.specialty])].map(([k, v]) => [k, breakdown(v)])),
    byWorkflow: Object.fromEntries([...groupBy(episodes, (e) => e.workflows)].map(([k, v]) => [k, breakdown(v)])),
    byCategory,
    byTask: Object.fromEntries([...groupBy(all, (e) => [e.task])].map(([k, v]) => [k, taskRow(v)])),
    toolCalls: { mean: mean(calls), min: calls.length ? Math.min(...calls) : 0, max: calls.length ? Math.max(...calls) : 0 },
    failures: Object.fromEntries(Object.entries(failures).sort(([a], [b]) => a.localeCompare(b))),
    criticalFailures: verdicts.filter((v) => v.critical && !v.pass).length,
    agentErrors: episodes.filter((e) => e.error).length,
    truncatedFinalReplies: episodes.filter((e) => e.truncatedFinalReply).length,
    ...(withTokens.length > 0 ? { tokens: tokenTotal(withTokens) } : {}),
    ...(cost !== undefined ? { cost } : {}),
    episodeTimeMs: all.reduce((s, e) => s + (e.durationMs ?? 0), 0),
    retries: all.reduce((s, e) => s + (e.retries ?? 0), 0),
    failedEpisodes: episodes.filter((e) => !e.pass).map((e) => {
      const first = e.verdicts.find((v) => !v.pass);
      return {
        task: e.task, variant: e.variant, trial: e.trial,
        ...(first ? { checkpoint: first.id, ...(first.failure ? { failure: first.failure } : {}) } : {}), ...(e.error ? { error: e.error } : {}),
      };
    }),
    infraErrorEpisodes: infra.map((e) => ({ task: e.task, variant: e.variant, trial: e.trial, infraError: e.infraError ?? 'infrastructure error' })),
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The summary as a plain-text report (what `ehr-gym run` prints). */
export function formatSummary(s: Summary): string {
  const lines: string[] = [];
  lines.push(`episodes ${s.episodes + s.infraErrors} over ${s.tasks} task(s): ${s.episodes} scored, ${s.infraErrors} infrastructure error(s) excluded from the rates; agent errors ${s.agentErrors}` +
    (s.truncatedFinalReplies > 0 ? `, truncated final replies ${s.truncatedFinalReplies}` : ''));
  lines.push(`pass@1 ${pct(s.pass1)}   checkpoint score ${pct(s.checkpointScore)}   checkpoints passed ${pct(s.checkpointPassRate)}`);
  lines.push(`pass^k  ${Object.entries(s.passHatK).map(([k, v]) => `k=${k}: ${pct(v)}`).join('   ')}`);
  lines.push(`tool calls per episode: mean ${s.toolCalls.mean.toFixed(1)}, min ${s.toolCalls.min}, max ${s.toolCalls.max}`);
  if (s.tokens) lines.push(`tokens: prompt ${s.tokens.prompt}, completion ${s.tokens.completion}${s.cost !== undefined ? `   cost $${s.cost.toFixed(4)}` : ''}`);
  lines.push(`episode time ${(s.episodeTimeMs / 1000).toFixed(1)} s in all; model requests retried ${s.retries}`);
  const table = (title: string, rows: string[][]) => {
    lines.push('', title);
    const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
    for (const r of rows) lines.push(`  ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')}`);
  };
  table('by specialty', [['specialty', 'episodes', 'pass@1', 'score'], ...Object.entries(s.bySpecialty).map(([k, b]) => [k, String(b.episodes), pct(b.passRate), pct(b.meanScore)] as [string, string, string, string])]);
  table('by workflow', [['workflow', 'episodes', 'pass@1', 'score'], ...Object.entries(s.byWorkflow).map(([k, b]) => [k, String(b.episodes), pct(b.passRate), pct(b.meanScore)] as [string, string, string, string])]);
  table('by checkpoint category', [['category', 'checkpoints', 'passed', 'rate'], ...Object.entries(s.byCategory).map(([k, b]) => [k, String(b!.checkpoints), String(b!.passed), pct(b!.passRate)] as [string, string, string, string])]);
  table('by task', [['task', 'episodes', 'passes', 'pass@1', 'score', 'infra errors', 'tokens', 'cost', 'mean time'],
    ...Object.entries(s.byTask).map(([k, b]) => [k, String(b.episodes), String(b.passes), pct(b.passRate), pct(b.meanScore), String(b.infraErrors),
      String(b.tokens.prompt + b.tokens.completion), b.cost !== undefined ? `$${b.cost.toFixed(4)}` : '-', `${(b.meanDurationMs / 1000).toFixed(1)} s`])]);
  if (Object.keys(s.failures).length > 0) {
    lines.push('', `failed checkpoints by cause (${s.criticalFailures} critical): ${Object.entries(s.failures).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  }
  if (s.failedEpisodes.length > 0) {
    lines.push('', 'failed episodes (first failing checkpoint)');
    for (const f of s.failedEpisodes) {
      lines.push(`  ${f.task} ${f.variant} t${f.trial}: ${f.checkpoint ?? '(no checkpoint)'}${f.failure ? ` [${f.failure}]` : ''}${f.error ? ` - ${f.error}` : ''}`);
    }
  }
  if (s.infraErrorEpisodes.length > 0) {
    lines.push('', 'infrastructure errors (not scored)');
    for (const f of s.infraErrorEpisodes) lines.push(`  ${f.task} ${f.variant} t${f.trial}: ${f.infraError}`);
  }
  return lines.join('\n');
}
