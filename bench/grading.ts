// `npm run bench -- --only grading`: what the case suites prove about each task's grader (issue 13). Runs `task check`
// (schema, oracle, null agent, mutation, correct and wrong case suites) over every task on the default population,
// and reports per task the variants, the oracle's FHIR calls and the case results.
import { checkTask, caseSuiteTable, type TaskCheckReport } from '../harness/task-check.ts';
import { GymClient } from '../harness/gym-client.ts';
import { startBenchServer } from '../harness/server.ts';
import { selectTaskIds } from '../harness/task-loader.ts';

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
  return [
    '## Grading: case suites',
    '',
    `Default population (250 patients, seed 1) plus each task's fixture. **${reports.filter((r) => r.ok).length}/${reports.length} tasks pass \`task check\`**; ` +
      `**${correct.filter((c) => c.ok).length}/${correct.length} guideline-concordant alternative agents pass every checkpoint on every variant**; ` +
      `**${wrong.filter((c) => c.ok).length}/${wrong.length} wrong or harmful agents are caught** (by the checkpoint they name, where they name one).`,
    '',
    caseSuiteTable(reports),
    ...(failing.length ? ['', 'Problems:', ...failing.flatMap((r) => r.problems.map((p) => `- ${r.task}: ${p.slice(0, 300)}`))] : []),
    '',
  ].join('\n');
}

