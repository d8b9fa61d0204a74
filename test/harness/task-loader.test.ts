import t from 'tap';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { discoverTaskIds, loadTask, matchesGlob, readTaskSpec, selectTaskIds, taskSpecProblems, TaskLoadError } from '../../harness/task-loader.ts';
import { FIXTURE_TASKS } from '../fixtures/fixture-tasks.ts';

const valid = {
  id: 'cardio/x', title: 'A task', specialty: 'cardio', workflows: ['referral'], level: 'patient', instruction: 'Please refer Patient/{patient}.',
  now: '2024-01-01T00:00:00Z', requester: { reference: 'Practitioner/a' }, binding: { criteria: [{ resourceType: 'Condition', params: { patient: '{patient}' } }] },
  deliverables: {}, checkpoints: [{ id: 'referred', category: 'action_execution', description: 'referral made', weight: 1 }], guidelines: [{ title: 'G' }],
};

t.test('the schema accepts a valid task and names every problem of a bad one', async (t) => {
  t.same(taskSpecProblems(valid, 'cardio/x'), []);
  const bad = { ...valid, level: 'ward', checkpoints: [{ id: 'x', category: 'vibes', description: 'd', weight: 0 }], extra: 1 };
  const problems = taskSpecProblems(bad);
  t.ok(problems.some((p) => p.includes('level')), problems.join('\n'));
  t.ok(problems.some((p) => p.includes('category')));
  t.ok(problems.some((p) => p.includes('weight')));
  t.ok(problems.some((p) => p.includes("'extra'")));
  t.match(taskSpecProblems(valid, 'cardio/y').join(), /must equal the folder path/);
  t.match(taskSpecProblems({ ...valid, checkpoints: [valid.checkpoints[0], valid.checkpoints[0]] }).join(), /repeated/);
  t.match(taskSpecProblems({ ...valid, now: '2024-01-01' }).join(), /now/);
});

t.test('globs', async (t) => {
  t.ok(matchesGlob('nephrology/hyperkalemia-ace-inhibitor', 'nephrology/*'));
  t.ok(matchesGlob('nephrology/hyperkalemia-ace-inhibitor', '**'));
  t.ok(matchesGlob('nephrology/hyperkalemia-ace-inhibitor', 'hyperkalemia-*'), 'a slug pattern');
  t.ok(matchesGlob('nephrology/hyperkalemia-ace-inhibitor', 'tasks/nephrology/hyperkalemia-ace-inhibitor/task.json'));
  t.notOk(matchesGlob('nephrology/hyperkalemia-ace-inhibitor', 'endocrinology/*'));
});

t.test('discovery and loading: missing checks and files are load errors', async (t) => {
  const dir = t.testdir({});
  const folder = join(dir, 'cardio', 'x');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'task.json'), JSON.stringify(valid));
  t.same(discoverTaskIds(dir), ['cardio/x']);
  t.same(selectTaskIds(['endo/*'], dir), []);
  t.equal(readTaskSpec('cardio/x', dir).title, 'A task');
  await t.rejects(loadTask('cardio/x', dir), { message: /solution.ts is missing; grader.ts is missing/ }, 'no solution.ts / grader.ts');
  writeFileSync(join(folder, 'solution.ts'), 'export default async function () {}\n');
  writeFileSync(join(folder, 'grader.ts'), 'export const checks = { other: () => ({ pass: true, evidence: [] }) };\n');
  const err = await loadTask('cardio/x', dir).catch((e: TaskLoadError) => e);
  t.ok(err instanceof TaskLoadError);
  t.ok((err as TaskLoadError).problems.some((p) => p.includes("checkpoint 'referred' has no check")));
  t.ok((err as TaskLoadError).problems.some((p) => p.includes("checks 'other'")));
});

t.test('every task loads: schema-valid, a check per checkpoint', async (t) => {
  const ids = selectTaskIds(undefined);
  t.ok(ids.length >= 30, `${ids.length} tasks`);
  for (const id of ids) {
    const task = await loadTask(id);
    t.equal(task.spec.id, id);
  }
});

t.test('the example tasks carry their fixtures', async (t) => {
  for (const id of selectTaskIds(['nephrology/hyperkalemia-ace-inhibitor', 'endocrinology/a1c-glycemic-control'], FIXTURE_TASKS)) {
    const task = await loadTask(id, FIXTURE_TASKS);
    t.ok(task.fixture, `${id} has its fixture`);
  }
});
