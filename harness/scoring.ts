// Scores of a run: pass@1 (an episode passes when every checkpoint passes), weighted checkpoint score, pass^k
// (tau-bench: mean over tasks of C(c,k)/C(n,k), n episodes and c passes per task), and breakdowns by specialty,
// workflow and checkpoint category, plus tool calls per episode and failure categories.
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

export interface Summary {
  episodes: number;
  tasks: number;
  /** Fraction of episodes that pass. */
  pass1: number;
  /** Mean weighted checkpoint score over episodes. */
  checkpointScore: number;
  /** Fraction of all checkpoint verdicts that pass (unweighted). */
  checkpointPassRate: number;
  passHatK: Record<string, number>;
  bySpecialty: Record<string, Breakdown>;
  byWorkflow: Record<string, Breakdown>;
  byCategory: Partial<Record<CheckpointCategory, CategoryBreakdown>>;
  byTask: Record<string, Breakdown & { passes: number }>;
  toolCalls: { mean: number; min: number; max: number };
  failures: Record<string, number>;
  criticalFailures: number;
  agentErrors: number;
  tokens?: { prompt: number; completion: number };
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

export function summarize(episodes: EpisodeResult[], maxK?: number): Summary {
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
  const withTokens = episodes.filter((e) => e.tokens);
  return {
    episodes: episodes.length,
    tasks: byTask.size,
    pass1: mean(episodes.map((e) => (e.pass ? 1 : 0))),
    checkpointScore: mean(episodes.map((e) => e.score)),
    checkpointPassRate: verdicts.length === 0 ? 0 : verdicts.filter((v) => v.pass).length / verdicts.length,
    passHatK: passK,
    bySpecialty: Object.fromEntries([...groupBy(episodes, (e) => [e.specialty])].map(([k, v]) => [k, breakdown(v)])),
    byWorkflow: Object.fromEntries([...groupBy(episodes, (e) => e.workflows)].map(([k, v]) => [k, breakdown(v)])),
    byCategory,
    byTask: Object.fromEntries([...byTask].map(([k, v]) => [k, { ...breakdown(v), passes: v.filter((e) => e.pass).length }])),
    toolCalls: { mean: mean(calls), min: calls.length ? Math.min(...calls) : 0, max: calls.length ? Math.max(...calls) : 0 },
    failures: Object.fromEntries(Object.entries(failures).sort(([a], [b]) => a.localeCompare(b))),
    criticalFailures: verdicts.filter((v) => v.critical && !v.pass).length,
    agentErrors: episodes.filter((e) => e.error).length,
    ...(withTokens.length > 0 ? {
      tokens: { prompt: withTokens.reduce((s, e) => s + e.tokens!.prompt, 0), completion: withTokens.reduce((s, e) => s + e.tokens!.completion, 0) },
    } : {}),
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The summary as a plain-text report (what `ehr-gym run` prints). */
export function formatSummary(s: Summary): string {
  const lines: string[] = [];
  lines.push(`episodes ${s.episodes} over ${s.tasks} task(s); agent errors ${s.agentErrors}`);
  lines.push(`pass@1 ${pct(s.pass1)}   checkpoint score ${pct(s.checkpointScore)}   checkpoints passed ${pct(s.checkpointPassRate)}`);
  lines.push(`pass^k  ${Object.entries(s.passHatK).map(([k, v]) => `k=${k}: ${pct(v)}`).join('   ')}`);
  lines.push(`tool calls per episode: mean ${s.toolCalls.mean.toFixed(1)}, min ${s.toolCalls.min}, max ${s.toolCalls.max}`);
  if (s.tokens) lines.push(`tokens: prompt ${s.tokens.prompt}, completion ${s.tokens.completion}`);
  const table = (title: string, rows: [string, string, string, string][]) => {
    lines.push('', title);
    const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length)));
    for (const r of rows) lines.push(`  ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')}`);
  };
  table('by specialty', [['specialty', 'episodes', 'pass@1', 'score'], ...Object.entries(s.bySpecialty).map(([k, b]) => [k, String(b.episodes), pct(b.passRate), pct(b.meanScore)] as [string, string, string, string])]);
  table('by workflow', [['workflow', 'episodes', 'pass@1', 'score'], ...Object.entries(s.byWorkflow).map(([k, b]) => [k, String(b.episodes), pct(b.passRate), pct(b.meanScore)] as [string, string, string, string])]);
  table('by checkpoint category', [['category', 'checkpoints', 'passed', 'rate'], ...Object.entries(s.byCategory).map(([k, b]) => [k, String(b!.checkpoints), String(b!.passed), pct(b!.passRate)] as [string, string, string, string])]);
  if (Object.keys(s.failures).length > 0) {
    lines.push('', `failed checkpoints by cause (${s.criticalFailures} critical): ${Object.entries(s.failures).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  }
  return lines.join('\n');
}
