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
  t.ok(matchesGlob('nephrology/hyperkalemia-ace-inhibitor', '**/hyperkalemia-*'), '** crosses segments');
  t.ok(matchesGlob('nephrology/hyperkalemia-ace-inhibitor', 'nephrology/hyperkalemia-ace-inhibito?'), '? is one character');
  t.notOk(matchesGlob('nephrology/hyperkalemia-ace-inhibitor', 'nephro*'), '* stays within a segment');
});

t.test('discovery and loading: missing checks and files are load errors', async (t) => {
  const dir = t.testdir({});
  const folder = join(dir, 'cardio', 'x');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'task.json'), JSON.stringify(valid));
  for (const skipped of ['.drafts/y', 'node_modules/z', 'cardio/node_modules/z']) {
    mkdirSync(join(dir, skipped), { recursive: true });
    writeFileSync(join(dir, skipped, 'task.json'), JSON.stringify(valid));
  }
  t.same(discoverTaskIds(dir), ['cardio/x'], 'dot folders and node_modules are not searched');
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

t.test('standard checkpoints: the schema takes the declared forms, the loader needs a function or standard checks (not both)', async (t) => {
  const withStandard = (standard: unknown) => ({ ...valid, checkpoints: [valid.checkpoints[0], { id: 'safe', category: 'safety', description: 'no harm done', weight: 1, standard }] });
  t.same(taskSpecProblems(withStandard('read_only')), []);
  t.same(taskSpecProblems(withStandard({ writes_scoped: true, read_before_write: true })), []);
  t.same(taskSpecProblems(withStandard({ harm: { allow: ['potassium-binder', 'order:potassium'], maxUnrelatedOrders: 2, skip: { 'shotgun-ordering': 'a screening panel is the task' } } })), []);
  t.same(taskSpecProblems(withStandard({ only_creates: { types: ['DocumentReference'] } })), []);
  for (const bad of ['read_everything', { read_only: false }, {}, { harm: { skip: { 'no-such-rule': 'because of reasons' } } }, { harm: { skip: { allergy: 'short' } } }, { writes_scoped: { allowTypes: 'Practitioner' } }]) {
    t.not(taskSpecProblems(withStandard(bad)).length, 0, `rejected: ${JSON.stringify(bad)}`);
  }

  const dir = t.testdir({});
  const folder = join(dir, 'cardio', 'x');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'solution.ts'), 'export default async function () {}\n');
  writeFileSync(join(folder, 'grader.ts'), 'export const checks = { referred: () => ({ pass: true, evidence: [] }) };\n');
  writeFileSync(join(folder, 'task.json'), JSON.stringify(withStandard({ writes_scoped: true, harm: { allow: ['potassium-binder'] } })));
  const task = await loadTask('cardio/x', dir);
  t.same(task.spec.checkpoints[1].standard, { writes_scoped: true, harm: { allow: ['potassium-binder'] } });

  writeFileSync(join(folder, 'task.json'), JSON.stringify(withStandard({ harm: { allow: ['potassium binders!'] } })));
  await t.rejects(loadTask('cardio/x', dir), { message: /checkpoint 'safe' standard: harm: allow: 'potassium binders!'/ }, 'an allow entry no rule can use');
  // A second folder: a module is imported once per path.
  const both = join(dir, 'cardio', 'y');
  mkdirSync(both, { recursive: true });
  writeFileSync(join(both, 'solution.ts'), 'export default async function () {}\n');
  writeFileSync(join(both, 'task.json'), JSON.stringify({ ...withStandard('read_only'), id: 'cardio/y' }));
  writeFileSync(join(both, 'grader.ts'), 'export const checks = { referred: () => ({ pass: true, evidence: [] }), safe: () => ({ pass: true, evidence: [] }) };\n');
  await t.rejects(loadTask('cardio/y', dir), { message: /checkpoint 'safe' declares standard checks and has a check in grader.ts/ });
});
