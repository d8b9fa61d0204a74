// `ehr-gym task check`: proof that each task is solvable and each checkpoint able to fail. Schema-valid and a check
// per checkpoint (the loader); at least one variant; the oracle (and every alternative solution) passes every
// checkpoint on every variant; the null agent fails every action_execution and documentation checkpoint; dropping
// any single write of the reference solution makes at least one checkpoint fail (mutation); every correct case
// (cases/correct/*.ts) passes every checkpoint on every variant and every wrong case (cases/wrong/*.ts) fails one.
import { runEpisode } from './episode.ts';
import { loadTask, TaskLoadError } from './task-loader.ts';
import { findVariants } from './variants.ts';
import { nullAgent } from './agents/null.ts';
import { runOracle, type OracleOutcome } from './agents/oracle.ts';
import type { Agent } from './agents/agent.ts';
import type { GymClient } from './gym-client.ts';
import type { WritePolicy } from '../contracts/fhir-client.ts';
import type { Task, Verdict } from '../contracts/task.ts';
import { caseAgent, loadCases, type CaseKind, type TaskCase } from './cases/suite.ts';

/** Case suites a patient task needs before it counts as proven (issue 13): guideline-concordant and wrong agents. */
export const REQUIRED_CASES: Record<CaseKind, number> = { correct: 3, wrong: 3 };

export interface CaseResult {
  kind: CaseKind;
  name: string;
  /** Whether the case did what its kind demands (correct: passed everywhere; wrong: caught as required). */
  ok: boolean;
  /** Per variant: the failing checkpoint ids (empty when the episode passed). */
  failed: Record<string, string[]>;
}

export interface TaskCheckReport {
  task: string;
  ok: boolean;
  variants: string[];
  problems: string[];
  /** Per variant: the oracle's write count and how many mutations were caught. */
  details: {
    variant: string; oracleWrites: number; oracleRequests: number; mutationsCaught: number;
    /** What the oracle did on this variant, as a comparable key (decisionKey); variants with different keys decided differently. */
    decision: string;
  }[];
  cases: CaseResult[];
  /** Set when a patient task has fewer case agents than REQUIRED_CASES (reported; not yet a failure). */
  missingCases?: string;
}

function failing(verdicts: Verdict[]): string {
  return verdicts.filter((v) => !v.pass).map((v) => `${v.id} (${v.evidence.join('; ').slice(0, 400)})`).join(', ');
}

/** An oracle agent that reports its writes back through `sink`. */
function recordingOracle(sink: { outcome?: OracleOutcome }, writePolicy?: WritePolicy): Agent {
  return {
    name: 'oracle',
    run: async (ctx) => {
      sink.outcome = await runOracle({ ...ctx, ...(writePolicy ? { writePolicy } : {}) });
      return sink.outcome;
    },
  };
}

export async function checkTask(taskId: string, gym: GymClient, options: { tasksDir?: string; mutation?: boolean } = {}): Promise<TaskCheckReport> {
  const report: TaskCheckReport = { task: taskId, ok: false, variants: [], problems: [], details: [], cases: [] };
  let task;
  try {
    task = await loadTask(taskId, options.tasksDir);
  } catch (err) {
    report.problems.push(...(err instanceof TaskLoadError ? err.problems : [(err as Error).message]));
    return report;
  }
  const cases = await loadCases(task.dir, report.problems);
  report.variants = await findVariants(task, gym);
  if (report.variants.length === 0) report.problems.push('no variant: the binding matches no patient on this dataset');
  for (const variant of report.variants) {
    const sink: { outcome?: OracleOutcome } = {};
    const oracle = await runEpisode({ task, variant, trial: 1, agent: recordingOracle(sink), gym });
    if (oracle.result.error) report.problems.push(`[${variant}] oracle: ${oracle.result.error}`);
    if (!oracle.result.pass) report.problems.push(`[${variant}] oracle fails: ${failing(oracle.result.verdicts)}`);
    // Every alternative reference solution (e.g. SQL on FHIR instead of REST search) must reach the same verdicts.
    for (const [name, alternative] of Object.entries(task.alternativeSolutions ?? {})) {
      const alt = await runEpisode({ task: { ...task, solution: alternative }, variant, trial: 1, agent: { name: `oracle:${name}`, run: runOracle }, gym });
      if (alt.result.error) report.problems.push(`[${variant}] alternative solution '${name}': ${alt.result.error}`);
      if (!alt.result.pass) report.problems.push(`[${variant}] alternative solution '${name}' fails: ${failing(alt.result.verdicts)}`);
    }
    const writes = sink.outcome?.writes ?? [];
    const detail = { variant, oracleWrites: writes.length, oracleRequests: oracle.result.toolCalls, mutationsCaught: 0, decision: decisionKey(writes) };
    report.details.push(detail);

    const nothing = await runEpisode({ task, variant, trial: 1, agent: nullAgent, gym });
    for (const v of nothing.result.verdicts) {
      if ((v.category === 'action_execution' || v.category === 'documentation') && v.pass) {
        report.problems.push(`[${variant}] the null agent passes ${v.category} checkpoint '${v.id}' (${v.evidence.join('; ')})`);
      }
    }

    if (options.mutation === false || !oracle.result.pass) continue;
    for (let skip = 0; skip < writes.length; skip++) {
      const mutated = await runEpisode({ task, variant, trial: 1, agent: recordingOracle({}, (_call, index) => (index === skip ? 'skip' : 'perform')), gym });
      const w = writes[skip];
      if (mutated.result.pass) report.problems.push(`[${variant}] mutation: dropping write #${skip} (${w.kind} ${w.resourceType}${w.id ? `/${w.id}` : ''}) leaves every checkpoint passing`);
      else detail.mutationsCaught++;
    }
  }
  for (const taskCase of cases) report.cases.push(await checkCase(task, taskCase, report.variants, gym, report.problems));
  if (task.spec.level === 'patient') {
    const short = (Object.keys(REQUIRED_CASES) as CaseKind[])
      .filter((kind) => cases.filter((c) => c.kind === kind).length < REQUIRED_CASES[kind])
      .map((kind) => `${cases.filter((c) => c.kind === kind).length}/${REQUIRED_CASES[kind]} ${kind}`);
    if (short.length > 0) report.missingCases = short.join(', ');
  }
  report.ok = report.problems.length === 0;
  return report;
}

/** Runs one case agent on every variant and judges it by its kind. */
async function checkCase(task: Task, taskCase: TaskCase, variants: string[], gym: GymClient, problems: string[]): Promise<CaseResult> {
  const result: CaseResult = { kind: taskCase.kind, name: taskCase.name, ok: true, failed: {} };
  const label = `${taskCase.kind} case '${taskCase.name}'${taskCase.module.description ? ` (${taskCase.module.description})` : ''}`;
  const catches = taskCase.module.catches;
  const caught: string[] = [];
  for (const variant of variants) {
    const episode = await runEpisode({ task, variant, trial: 1, agent: caseAgent(taskCase), gym });
    const failedIds = episode.result.verdicts.filter((v) => !v.pass).map((v) => v.id);
    result.failed[variant] = failedIds;
    if (taskCase.kind === 'correct') {
      if (episode.result.error) problems.push(`[${variant}] ${label}: ${episode.result.error}`);
      if (!episode.result.pass) problems.push(`[${variant}] ${label} is rejected: ${failing(episode.result.verdicts)}`);
      if (episode.result.error || !episode.result.pass) result.ok = false;
    } else if (catches ? failedIds.some((id) => catches.includes(id)) : failedIds.length > 0) {
      caught.push(variant);
    } else if ((taskCase.module.mustFail ?? 'every') === 'every') {
      problems.push(`[${variant}] ${label} is not caught: ${failedIds.length ? `fails only ${failedIds.join(', ')}, expected one of ${catches!.join(', ')}` : 'every checkpoint passes'}`);
      result.ok = false;
    }
  }
  if (taskCase.kind === 'wrong' && taskCase.module.mustFail === 'some' && caught.length === 0 && variants.length > 0) {
    problems.push(`${label} is not caught on any variant`);
    result.ok = false;
  }
  return result;
}

export function formatCheckReport(report: TaskCheckReport): string {
  const head = `${report.ok ? 'ok  ' : 'FAIL'} ${report.task}  variants: ${report.variants.length ? report.variants.join(', ') : '(none)'}`;
  const correct = report.cases.filter((c) => c.kind === 'correct');
  const wrong = report.cases.filter((c) => c.kind === 'wrong');
  const caseLine = report.cases.length || report.missingCases
    ? [`     cases: ${correct.filter((c) => c.ok).length}/${correct.length} correct passed, ${wrong.filter((c) => c.ok).length}/${wrong.length} wrong caught${report.missingCases ? ` (suite incomplete: ${report.missingCases})` : ''}`]
    : [];
  const details = report.details.map((d) => `     ${d.variant}: oracle ${d.oracleRequests} requests, ${d.oracleWrites} writes, ${d.mutationsCaught}/${d.oracleWrites} mutations caught`);
  return [head, ...details, ...caseLine, ...report.problems.map((p) => `     - ${p}`)].join('\n');
}

/** Per task: variants, oracle calls, and what its case suites proved (the table bench/RESULTS.md quotes). */
/**
 * What the oracle did on one variant, as a key: each performed write's interaction, type, status and coded concept
 * (the drug ordered or stopped, the test ordered), sorted. A lower bound on "distinct decisions across variants": two
 * variants whose answers differ but whose writes agree count as one.
 */
export function decisionKey(writes: OracleOutcome['writes']): string {
  const conceptOf = (body: Record<string, unknown>): string => {
    const concept = (body.medicationCodeableConcept ?? body.code ?? body.type) as { coding?: { code?: string }[]; text?: string } | undefined;
    return concept?.coding?.[0]?.code ?? concept?.text?.toLowerCase() ?? '';
  };
  return writes.filter((w) => !w.skipped).map((w) => {
    const body = (w.body ?? {}) as Record<string, unknown>;
    return [w.kind, w.resourceType, typeof body.status === 'string' ? body.status : '', conceptOf(body)].join(' ');
  }).sort().join('; ');
}

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0;
};

export function caseSuiteTable(reports: TaskCheckReport[]): string {
  const rows = reports.map((r) => {
    const correct = r.cases.filter((c) => c.kind === 'correct');
    const wrong = r.cases.filter((c) => c.kind === 'wrong');
    const decisions = new Set(r.details.map((d) => d.decision)).size;
    return `| ${r.task} | ${r.ok ? 'ok' : 'FAIL'} | ${r.variants.length} | ${decisions} | ${median(r.details.map((d) => d.oracleRequests))} | ${median(r.details.map((d) => d.oracleWrites))} | ${correct.filter((c) => c.ok).length}/${correct.length} | ${wrong.filter((c) => c.ok).length}/${wrong.length} | ${r.missingCases ?? ''} |`;
  });
  const all = reports.flatMap((r) => r.cases);
  const total = (kind: CaseKind) => `${all.filter((c) => c.kind === kind && c.ok).length}/${all.filter((c) => c.kind === kind).length}`;
  return [
    '| task | check | variants | distinct oracle decisions | oracle calls (median) | oracle writes (median) | correct cases passed | wrong cases caught | suite short of 3+3 |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    `| **all ${reports.length}** | ${reports.filter((r) => r.ok).length} ok | ${reports.reduce((n, r) => n + r.variants.length, 0)} | | | | ${total('correct')} | ${total('wrong')} | ${reports.filter((r) => r.missingCases).length} short |`,
  ].join('\n');
}
