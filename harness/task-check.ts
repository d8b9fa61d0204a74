// `ehr-gym task check`: proof that each task is solvable and each checkpoint able to fail. Schema-valid and a check
// per checkpoint (the loader); at least one variant; the oracle (and every alternative solution) passes every
// checkpoint on every variant; the null agent fails every action_execution and documentation checkpoint; dropping
// any single write of the reference solution makes at least one checkpoint fail (mutation).
import { runEpisode } from './episode.ts';
import { loadTask, TaskLoadError } from './task-loader.ts';
import { findVariants } from './variants.ts';
import { nullAgent } from './agents/null.ts';
import { runOracle, type OracleOutcome } from './agents/oracle.ts';
import type { Agent } from './agents/agent.ts';
import type { GymClient } from './gym-client.ts';
import type { WritePolicy } from './fhir-client.ts';
import type { Verdict } from './types.ts';

export interface TaskCheckReport {
  task: string;
  ok: boolean;
  variants: string[];
  problems: string[];
  /** Per variant: the oracle's write count and how many mutations were caught. */
  details: { variant: string; oracleWrites: number; oracleRequests: number; mutationsCaught: number }[];
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
  const report: TaskCheckReport = { task: taskId, ok: false, variants: [], problems: [], details: [] };
  let task;
  try {
    task = await loadTask(taskId, options.tasksDir);
  } catch (err) {
    report.problems.push(...(err instanceof TaskLoadError ? err.problems : [(err as Error).message]));
    return report;
  }
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
    const detail = { variant, oracleWrites: writes.length, oracleRequests: oracle.result.toolCalls, mutationsCaught: 0 };
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
  report.ok = report.problems.length === 0;
  return report;
}

export function formatCheckReport(report: TaskCheckReport): string {
  const head = `${report.ok ? 'ok  ' : 'FAIL'} ${report.task}  variants: ${report.variants.length ? report.variants.join(', ') : '(none)'}`;
  const details = report.details.map((d) => `     ${d.variant}: oracle ${d.oracleRequests} requests, ${d.oracleWrites} writes, ${d.mutationsCaught}/${d.oracleWrites} mutations caught`);
  return [head, ...details, ...report.problems.map((p) => `     - ${p}`)].join('\n');
}
