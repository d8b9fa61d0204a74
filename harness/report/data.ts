// What the report shows, computed from a results directory (what `ehr-gym run --out` writes: summary.json and one
// JSON file per episode). The scores are recomputed from the episode files through harness/scoring.ts, the one
// definition of pass@1, checkpoint score and pass^k, so a report of a directory whose summary.json is missing (a run
// cut short) still has them. The HTML page (html.ts) renders this data; nothing is computed in the browser but
// sorting and filtering.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { episodeFileName } from '../runner.ts';
import { summarize, type Summary } from '../scoring.ts';
import { agentRequests, buildTrajectory, requestLine, type TrajectoryStep } from './trajectory.ts';
import fastJsonPatch, { type Operation } from 'fast-json-patch';
import type { AuditEntry, ResourceChange } from '../../contracts/gym-api.ts';
import type { Verdict } from '../../contracts/task.ts';
import type { EpisodeResult } from '../types.ts';

/** A results directory as read from disk. */
export interface LoadedRun {
  dir: string;
  /** summary.json without its summary and episode list (agent, trials, settings, price, provenance, times). */
  meta: Record<string, unknown>;
  episodes: EpisodeResult[];
  summary: Summary;
}

export class ResultsDirError extends Error {}

export function loadRun(dir: string): LoadedRun {
  const episodesDir = join(dir, 'episodes');
  if (!existsSync(episodesDir)) throw new ResultsDirError(`${dir} is not a results directory (no episodes/ in it; write one with ehr-gym run --out ${dir})`);
  const files = readdirSync(episodesDir).filter((f) => f.endsWith('.json')).sort();
  const episodes = files.map((f) => {
    try {
      return JSON.parse(readFileSync(join(episodesDir, f), 'utf8')) as EpisodeResult;
    } catch (err) {
      throw new ResultsDirError(`${join(episodesDir, f)}: not an episode record (${(err as Error).message})`);
    }
  });
  let meta: Record<string, unknown> = {};
  const summaryPath = join(dir, 'summary.json');
  if (existsSync(summaryPath)) {
    const { summary: _s, episodes: _e, ...rest } = JSON.parse(readFileSync(summaryPath, 'utf8')) as Record<string, unknown>;
    meta = rest;
  }
  const trials = typeof meta.trials === 'number' ? meta.trials : undefined;
  return { dir: resolve(dir), meta, episodes, summary: summarize(episodes, trials) };
}

/** One episode of a results directory by its id (`episodeId`), for the page that fetches trajectories one at a time. */
export function loadEpisode(dir: string, id: string): EpisodeResult | undefined {
  // Ids are file names the runner wrote: anything else (a path, a dot segment) is no episode.
  if (!/^[\w.@-]+$/.test(id) || id.includes('..')) return undefined;
  const path = join(dir, 'episodes', `${id}.json`);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as EpisodeResult) : undefined;
}

/** The id an episode goes by in the report and the exports: its file name without `.json`. */
export function episodeId(e: Pick<EpisodeResult, 'task' | 'variant' | 'trial'>): string {
  return episodeFileName(e).replace(/\.json$/, '');
}

/** Why an episode did not pass, as the episode list filters it: verdict failure categories, agent and infra errors. */
export function failureCauses(e: EpisodeResult): string[] {
  if (e.outcome === 'infra_error') return ['infra_error'];
  const causes = new Set(e.verdicts.filter((v) => !v.pass).map((v) => v.failure ?? 'incorrect'));
  if (e.error) causes.add('agent_error');
  return [...causes].sort();
}

export interface EpisodeRow {
  id: string;
  task: string;
  specialty: string;
  variant: string;
  trial: number;
  outcome: EpisodeResult['outcome'];
  score: number;
  /** Checkpoints that failed, in task order. */
  failedCheckpoints: string[];
  causes: string[];
  toolCalls: number;
  writes: number;
  tokens?: number;
  cost?: number;
  durationMs: number;
  error?: string;
}

export interface TaskTableRow {
  task: string;
  specialty: string;
  variants: number;
  trials: number;
  /** Scored episodes (infrastructure errors apart). */
  episodes: number;
  passes: number;
  passRate: number;
  meanScore: number;
  infraErrors: number;
  /** The checkpoint that failed in most scored episodes, with that count. */
  mostFailed?: { id: string; episodes: number };
}

export type DiffLine = [op: ' ' | '+' | '-', text: string];

/** One write's effect on a resource, line by line. */
export interface WriteDiff {
  resource: string;
  /** The request that wrote it (absent when no audited request can be tied to the change). */
  seq?: number;
  step?: number;
  /**
   * `write`: the resource just before and just after this request. `episode`: as the episode found it and as it left
   * it (a resource written several times whose versions between cannot be rebuilt from the log, e.g. a transaction).
   */
  span: 'write' | 'episode';
  diff: DiffLine[];
}

export interface ChangeView {
  resource: string;
  action: ResourceChange['action'];
  /** Versions the session wrote. */
  versions: number;
  writes: WriteDiff[];
}

export interface EvidenceLink {
  /** What the evidence text cites: `#34` (an audit seq) or `Type/id`. */
  text: string;
  step: number;
}

/** A checkpoint verdict, its evidence lines with the steps they cite. */
export interface VerdictView extends Omit<Verdict, 'evidence'> {
  evidence: { text: string; links: EvidenceLink[] }[];
}

export interface RequestView {
  seq: number;
  line: string;
  status: number;
  write: boolean;
  tool?: string;
  resourceIds: string[];
}

export interface StepView extends Omit<TrajectoryStep, 'requests'> {
  /** Requests of the step: those of its tool calls, or its own. */
  requests: RequestView[];
  /** What this step's writes did to each resource. */
  diffs: WriteDiff[];
}

export interface EpisodeView {
  id: string;
  row: EpisodeRow;
  agent: string;
  model?: string;
  session: string;
  answer: unknown;
  infraError?: string;
  conversation: boolean;
  steps: StepView[];
  verdicts: VerdictView[];
  changes: ChangeView[];
}

export interface RunView {
  label: string;
  dir: string;
  meta: Record<string, unknown>;
  summary: Summary;
  tasks: TaskTableRow[];
  episodes: EpisodeRow[];
  /** Every episode's trajectory, by id; empty when the page fetches them one at a time (`ReportData.lazy`). */
  trajectories: Record<string, EpisodeView>;
}

export interface ComparisonRow {
  task: string;
  a?: { passes: number; episodes: number; passRate: number; meanScore: number };
  b?: { passes: number; episodes: number; passRate: number; meanScore: number };
  /** Pass rate of B minus A (both present). */
  change?: number;
}

export interface ReportData {
  generatedAt: string;
  /**
   * The trajectories are not in the page: it fetches `episode?run=N&id=ID` when one is opened (`ehr-gym view`, so a
   * large run's page stays small; the written report holds them all).
   */
  lazy?: boolean;
  runs: RunView[];
  comparison?: ComparisonRow[];
}

/** Tool results longer than this are cut in the report (the episode file keeps them whole). */
export const REPORT_RESULT_LIMIT = 20_000;

function episodeRow(e: EpisodeResult): EpisodeRow {
  return {
    id: episodeId(e), task: e.task, specialty: e.specialty, variant: e.variant, trial: e.trial, outcome: e.outcome ?? (e.pass ? 'passed' : 'failed'),
    score: e.score, failedCheckpoints: e.verdicts.filter((v) => !v.pass).map((v) => v.id), causes: failureCauses(e),
    toolCalls: e.toolCalls, writes: e.writes, durationMs: e.durationMs ?? 0,
    ...(e.tokens ? { tokens: e.tokens.prompt + e.tokens.completion } : {}), ...(e.cost !== undefined ? { cost: e.cost } : {}),
    ...(e.error ? { error: e.error } : {}),
  };
}

function taskRows(run: LoadedRun): TaskTableRow[] {
  const byTask = new Map<string, EpisodeResult[]>();
  for (const e of run.episodes) byTask.set(e.task, [...(byTask.get(e.task) ?? []), e]);
  return [...byTask].sort(([a], [b]) => a.localeCompare(b)).map(([task, list]) => {
    const row = run.summary.byTask[task];
    const failedIn = new Map<string, number>();
    for (const e of list) if (e.outcome !== 'infra_error') for (const v of e.verdicts) if (!v.pass) failedIn.set(v.id, (failedIn.get(v.id) ?? 0) + 1);
    // Ties go to the checkpoint first in task order (the verdicts' order).
    const order = list[0].verdicts.map((v) => v.id);
    const most = [...failedIn].sort(([a, n], [b, m]) => m - n || order.indexOf(a) - order.indexOf(b))[0];
    return {
      task, specialty: list[0].specialty, variants: new Set(list.map((e) => e.variant)).size, trials: Math.max(...list.map((e) => e.trial)),
      episodes: row.episodes, passes: row.passes, passRate: row.passRate, meanScore: row.meanScore, infraErrors: row.infraErrors,
      ...(most ? { mostFailed: { id: most[0], episodes: most[1] } } : {}),
    };
  });
}

/** JSON with sorted keys, two-space indent: the same resource prints the same way before and after. */
export function stableJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])]));
    return v;
  };
  return value === null || value === undefined ? '' : JSON.stringify(sort(value), null, 2);
}

/** Line diff (longest common subsequence) of two texts; resources are small, so the quadratic table is fine. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push([' ', a[i]]);
      i++;
      j++;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) out.push(['-', a[i++]]);
    else out.push(['+', b[j++]]);
  }
  while (i < a.length) out.push(['-', a[i++]]);
  while (j < b.length) out.push(['+', b[j++]]);
  return out;
}

const { applyPatch } = fastJsonPatch;

const cut = (text: string) => (text.length > REPORT_RESULT_LIMIT ? `${text.slice(0, REPORT_RESULT_LIMIT)}\n… (${text.length - REPORT_RESULT_LIMIT} more characters in the episode file)` : text);

/** The resource after one write, rebuilt from the request: a create or update sends it whole, a patch its operations. */
function applyWrite(before: unknown, entry: AuditEntry): unknown {
  if (entry.requestBodyTruncated) throw new Error('request body not kept whole');
  if (entry.method === 'DELETE') return null;
  if (entry.method === 'POST' || entry.method === 'PUT') {
    if (!entry.requestBody || typeof entry.requestBody !== 'object' || (entry.requestBody as { resourceType?: string }).resourceType === 'Bundle') throw new Error('not a single resource');
    return entry.requestBody;
  }
  if (entry.method === 'PATCH' && Array.isArray(entry.requestBody) && before) {
    return applyPatch(structuredClone(before), entry.requestBody as Operation[], false, false).newDocument;
  }
  throw new Error(`cannot rebuild ${entry.method}`);
}

/**
 * The diffs of a changed resource, one per write. The change record holds the resource as the episode found it and as
 * it left it; the versions between are rebuilt from the audited request bodies, and the last write ends at the recorded
 * state (with the server's meta). When a version cannot be rebuilt (a transaction, a body cut by the log's limit), one
 * diff from start to end stands at the last write.
 */
export function writeDiffs(change: ResourceChange, log: AuditEntry[]): Omit<WriteDiff, 'step'>[] {
  const key = `${change.type}/${change.id}`;
  const writes = log.filter((entry) => entry.write && entry.status < 400 && (entry.resourceIds.includes(key) || entry.path === key)).sort((a, b) => a.seq - b.seq);
  const whole = (seq?: number): Omit<WriteDiff, 'step'>[] => [{ resource: key, ...(seq !== undefined ? { seq } : {}), span: writes.length > 1 ? 'episode' : 'write', diff: lineDiff(stableJson(change.before), stableJson(change.after)) }];
  if (writes.length <= 1) return whole(writes[0]?.seq);
  const out: Omit<WriteDiff, 'step'>[] = [];
  let previous: unknown = change.before;
  try {
    writes.forEach((entry, i) => {
      const next = i === writes.length - 1 ? change.after : applyWrite(previous, entry);
      out.push({ resource: key, seq: entry.seq, span: 'write', diff: lineDiff(stableJson(previous), stableJson(next)) });
      previous = next;
    });
  } catch {
    return whole(writes.at(-1)!.seq);
  }
  return out;
}

export function episodeView(e: EpisodeResult): EpisodeView {
  const trajectory = buildTrajectory(e);
  const bySeq = new Map(agentRequests(e.log ?? []).map((entry) => [entry.seq, entry]));
  const stepOfSeq = new Map<number, number>();
  for (const s of trajectory.steps) for (const seq of [...s.requests, ...s.toolCalls.flatMap((c) => c.seqs)]) stepOfSeq.set(seq, s.n);
  const changes: ChangeView[] = (e.changes ?? []).map((c) => ({
    resource: `${c.type}/${c.id}`, action: c.action, versions: c.versions.length,
    writes: writeDiffs(c, e.log ?? []).map((w) => ({ ...w, ...(w.seq !== undefined && stepOfSeq.has(w.seq) ? { step: stepOfSeq.get(w.seq)! } : {}) })),
  }));
  const steps: StepView[] = trajectory.steps.map((s) => {
    const seqs = [...s.requests, ...s.toolCalls.flatMap((c) => c.seqs)];
    return {
      ...s, results: s.results.map((r) => ({ ...r, text: cut(r.text) })),
      requests: seqs.map((seq) => bySeq.get(seq)).filter((x) => x !== undefined).map((x) => ({ seq: x.seq, line: requestLine(x), status: x.status, write: x.write, ...(x.tool ? { tool: x.tool } : {}), resourceIds: x.resourceIds })),
      diffs: changes.flatMap((c) => c.writes.filter((w) => w.step === s.n)),
    };
  });
  // Evidence cites requests as `#seq` and resources as `Type/id`: a seq links to its step; a resource to the step that
  // wrote it, else the last step whose request returned it.
  const resourceStep = (ref: string): number | undefined => {
    const written = changes.find((c) => c.resource === ref)?.writes.filter((w) => w.step !== undefined);
    if (written?.length) return written.at(-1)!.step;
    const reads = (e.log ?? []).filter((entry) => entry.resourceIds.includes(ref)).map((entry) => stepOfSeq.get(entry.seq)).filter((n) => n !== undefined);
    return reads.at(-1);
  };
  const verdicts: VerdictView[] = e.verdicts.map((v) => ({
    ...v,
    evidence: v.evidence.map((text) => {
      const links: EvidenceLink[] = [];
      for (const m of text.matchAll(/#(\d+)\b/g)) {
        const step = stepOfSeq.get(Number(m[1]));
        if (step !== undefined) links.push({ text: m[0], step });
      }
      for (const m of text.matchAll(/\b([A-Z][A-Za-z]+\/[A-Za-z0-9\-.]{1,64})/g)) {
        const step = resourceStep(m[1]);
        if (step !== undefined && !links.some((l) => l.text === m[1])) links.push({ text: m[1], step });
      }
      return { text, links };
    }),
  }));
  return {
    id: episodeId(e), row: episodeRow(e), agent: e.agent, ...(e.settings?.model ? { model: e.settings.model } : {}), session: e.session,
    answer: e.answer, ...(e.infraError ? { infraError: e.infraError } : {}), conversation: trajectory.conversation, steps, verdicts, changes,
  };
}

export function runView(run: LoadedRun, label?: string, trajectories = true): RunView {
  return {
    label: label ?? basename(run.dir), dir: run.dir, meta: run.meta, summary: run.summary, tasks: taskRows(run),
    episodes: run.episodes.map(episodeRow),
    trajectories: trajectories ? Object.fromEntries(run.episodes.map((e) => [episodeId(e), episodeView(e)])) : {},
  };
}

export function compareRuns(a: LoadedRun, b: LoadedRun): ComparisonRow[] {
  const tasks = [...new Set([...Object.keys(a.summary.byTask), ...Object.keys(b.summary.byTask)])].sort();
  const side = (run: LoadedRun, task: string) => {
    const row = run.summary.byTask[task];
    return row ? { passes: row.passes, episodes: row.episodes, passRate: row.passRate, meanScore: row.meanScore } : undefined;
  };
  return tasks.map((task) => {
    const ra = side(a, task);
    const rb = side(b, task);
    // A task whose episodes all ended in infrastructure errors has no rate to compare.
    const change = ra && rb && ra.episodes > 0 && rb.episodes > 0 ? rb.passRate - ra.passRate : undefined;
    return { task, ...(ra ? { a: ra } : {}), ...(rb ? { b: rb } : {}), ...(change !== undefined ? { change } : {}) };
  });
}

/** The report of one results directory, or of two compared (A then B); `lazy` leaves the trajectories out. */
export function reportData(dirs: string[], options: { lazy?: boolean; now?: Date } = {}): ReportData {
  const runs = dirs.map((d) => loadRun(d));
  const labels = runs.map((r) => basename(r.dir));
  // Two directories of the same name (runs/x/out, runs/y/out) are told apart by A and B.
  const distinct = new Set(labels).size === labels.length;
  return {
    generatedAt: (options.now ?? new Date()).toISOString(), ...(options.lazy ? { lazy: true } : {}),
    runs: runs.map((r, i) => runView(r, distinct ? labels[i] : `${'AB'[i]}: ${labels[i]}`, !options.lazy)),
    ...(runs.length === 2 ? { comparison: compareRuns(runs[0], runs[1]) } : {}),
  };
}
