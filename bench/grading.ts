// `npm run bench -- --only grading`: what the case suites prove about each task's grader (issue 13). Runs `task check`
// (schema, oracle, null agent, mutation, correct and wrong case suites) over every task on the default population,
// and reports per task the variants, the oracle's FHIR calls and the case results.
import { checkTask, caseSuiteTable, type TaskCheckReport } from '../harness/task-check.ts';
import { GymClient } from '../harness/gym-client.ts';
import { startBenchServer } from '../harness/server.ts';
import { loadTask, selectTaskIds } from '../harness/task-loader.ts';

export async function benchGrading(): Promise<string> {
  const server = await startBenchServer({ patients: 250, seed: 1 });
  const gym = new GymClient(server.url);
  const reports: TaskCheckReport[] = [];
  try {
    for (const id of selectTaskIds(undefined)) reports.push(await checkTask(id, gym));
  } finally {
    await server.close();
  }
  const cases = reports.flatMap((r) => r.cases);
  const correct = cases.filter((c) => c.kind === 'correct');
  const wrong = cases.filter((c) => c.kind === 'wrong');
  const failing = reports.filter((r) => !r.ok);
  // Issue 17's scale figures: specialties, checkpoints, and how much chart review the patient tasks' oracles do.
  const specs = await Promise.all(reports.map(async (r) => (await loadTask(r.task)).spec));
  const patientCalls = reports.filter((_, i) => specs[i].level === 'patient').map((r) => {
    const calls = r.details.map((d) => d.oracleRequests).sort((a, b) => a - b);
    return calls[Math.floor(calls.length / 2)] ?? 0;
  }).sort((a, b) => a - b);
  const medianPatientCalls = patientCalls[Math.floor(patientCalls.length / 2)] ?? 0;
  return [
    '## Grading: case suites',
    '',
    `Default population (250 patients, seed 1) plus each task's fixture. **${reports.filter((r) => r.ok).length}/${reports.length} tasks pass \`task check\`**; ` +
      `**${correct.filter((c) => c.ok).length}/${correct.length} guideline-concordant alternative agents pass every checkpoint on every variant**; ` +
      `**${wrong.filter((c) => c.ok).length}/${wrong.length} wrong or harmful agents are caught** (by the checkpoint they name, where they name one).`,
    '',
    `${reports.length} tasks in ${new Set(specs.map((t) => t.specialty)).size} specialties, ${specs.reduce((n, t) => n + t.checkpoints.length, 0)} checkpoints; ` +
      `median over patient tasks of the oracle's median FHIR calls per variant: **${medianPatientCalls}** (issue 17 target >= 15). ` +
      'Distinct oracle decisions: variants whose oracle writes differ (interaction, type, status, coded concept), a lower bound.',
    '',
    caseSuiteTable(reports),
    ...(failing.length ? ['', 'Problems:', ...failing.flatMap((r) => r.problems.map((p) => `- ${r.task}: ${p.slice(0, 300)}`))] : []),
    '',
  ].join('\n');
}

