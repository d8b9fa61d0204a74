// End to end: `task check` on the example tasks against an in-process server (fixture patients only), and on broken
// copies of a task, which it must reject for the right reason.
import t, { type Test } from 'tap';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { caseSuiteTable, checkTask, decisionKey } from '../../harness/task-check.ts';
import { GymClient } from '../../harness/gym-client.ts';
import { startBenchServer } from '../../harness/server.ts';
import { selectTaskIds } from '../../harness/task-loader.ts';
import { FIXTURE_TASKS } from '../fixtures/fixture-tasks.ts';

const server = await startBenchServer({ patients: 0, tasksDir: FIXTURE_TASKS });
t.teardown(() => server.close());
const gym = new GymClient(server.url);

t.test('every example task passes task check', async (t) => {
  // The example tasks carry fixture patients; the others bind to the seeded population (checked by `task check` in CI).
  const ids = selectTaskIds(['nephrology/hyperkalemia-ace-inhibitor', 'endocrinology/a1c-glycemic-control'], FIXTURE_TASKS);
  t.equal(ids.length, 2);
  for (const id of ids) {
    const report = await checkTask(id, gym, { tasksDir: FIXTURE_TASKS });
    t.ok(report.ok, `${id}: ${report.problems.join('\n')}`);
    t.ok(report.variants.length >= 2, `${id} has fixture variants`);
  }
});

t.test('decisionKey: what the oracle did, comparable across variants', async (t) => {
  const order = (status: string, code: string) => ({ kind: 'create' as const, resourceType: 'MedicationRequest', body: { status, medicationCodeableConcept: { coding: [{ code }] } }, skipped: false });
  const note = { kind: 'create' as const, resourceType: 'DocumentReference', body: { status: 'current', type: { coding: [{ code: '11488-4' }] } }, skipped: false };
  const stop = { kind: 'update' as const, resourceType: 'MedicationRequest', id: 'm1', body: { status: 'stopped', medicationCodeableConcept: { coding: [{ code: '29046' }] } }, skipped: false };
  t.equal(decisionKey([note, order('active', '29046')]), decisionKey([order('active', '29046'), note]), 'the order of writes does not matter');
  t.not(decisionKey([note, order('active', '29046')]), decisionKey([note, stop]), 'starting a drug and stopping it differ');
  t.not(decisionKey([note, order('active', '29046')]), decisionKey([note, order('active', '3827')]), 'two drugs differ');
  t.equal(decisionKey([note, { ...order('active', '29046'), skipped: true }]), decisionKey([note]), 'a skipped write was not done');
});

t.test('caseSuiteTable: variants, distinct decisions, median oracle calls and writes per task', async (t) => {
  const report = await checkTask('nephrology/hyperkalemia-ace-inhibitor', gym, { tasksDir: FIXTURE_TASKS, mutation: false });
  const row = caseSuiteTable([report]).split('\n').find((line) => line.startsWith('| nephrology/'))!.split('|').map((c) => c.trim());
  const decisions = new Set(report.details.map((d) => d.decision)).size;
  t.same(row.slice(1, 5), [ID, 'ok', String(report.variants.length), String(decisions)]);
  t.ok(decisions >= 1 && decisions <= report.variants.length);
});

t.test('the hyperkalemia binding excludes the patient whose old potassium was high but latest is normal', async (t) => {
  const report = await checkTask('nephrology/hyperkalemia-ace-inhibitor', gym, { tasksDir: FIXTURE_TASKS, mutation: false });
  t.same(report.variants, ['hk-okafor', 'hk-ramos']);
});

const ID = 'nephrology/hyperkalemia-ace-inhibitor';

function brokenCopy(t: Test, edit: (dir: string) => void): string {
  const root = t.testdir({});
  cpSync(join(FIXTURE_TASKS, ID), join(root, ID), { recursive: true });
  edit(join(root, ID));
  return root;
}

function replaceIn(path: string, from: string | RegExp, to: string): void {
  const text = readFileSync(path, 'utf8');
  const next = text.replace(from, to);
  if (next === text) throw new Error(`no change in ${path}`);
  writeFileSync(path, next);
}

// Broken copies import the real graders/lib and harness through absolute paths.
function absolutize(dir: string): void {
  for (const file of ['solution.ts', 'grader.ts']) replaceIn(join(dir, file), /'(?:\.\.\/)+(graders|harness)\//g, `'${join(FIXTURE_TASKS, '..', '..', '..')}/$1/`);
}

t.test('a checkpoint the solution does not earn: the oracle fails', async (t) => {
  const root = brokenCopy(t, (dir) => {
    absolutize(dir);
    replaceIn(join(dir, 'solution.ts'), "code: '51990-0'", "code: '2160-0'");
  });
  const report = await checkTask(ID, gym, { tasksDir: root, mutation: false });
  t.notOk(report.ok);
  t.match(report.problems.join('\n'), /oracle fails: repeat_potassium_ordered/);
});

t.test('a write no checkpoint looks at: the mutation check catches it', async (t) => {
  const root = brokenCopy(t, (dir) => {
    absolutize(dir);
    replaceIn(join(dir, 'grader.ts'), /repeat_potassium_ordered: \(\{ patient, changes \}\) => verdict\(/, 'repeat_potassium_ordered: () => ({ pass: true, evidence: ["vacuous"] }), _unused: ({ patient, changes }) => verdict(');
    replaceIn(join(dir, 'grader.ts'), "export const checks: Record<string, Check> = {", 'export const checks: Record<string, Check> = {} as Record<string, Check>;\nconst allChecks: Record<string, Check> = {');
    writeFileSync(join(dir, 'grader.ts'), `${readFileSync(join(dir, 'grader.ts'), 'utf8')}\nfor (const [k, v] of Object.entries(allChecks)) if (k !== '_unused') checks[k] = v;\n`);
  });
  const report = await checkTask(ID, gym, { tasksDir: root });
  t.notOk(report.ok);
  t.match(report.problems.join('\n'), /dropping write #1 \(create ServiceRequest\) leaves every checkpoint passing/);
  t.match(report.problems.join('\n'), /null agent passes action_execution checkpoint 'repeat_potassium_ordered'/);
});

t.test('a binding that matches nobody is an error', async (t) => {
  const root = brokenCopy(t, (dir) => {
    absolutize(dir);
    replaceIn(join(dir, 'task.json'), '"criteria": [', '"criteria": [\n      { "resourceType": "Condition", "params": { "patient": "{patient}" } },');
  });
  const report = await checkTask(ID, gym, { tasksDir: root });
  t.notOk(report.ok);
  t.same(report.variants, []);
  t.match(report.problems.join('\n'), /no variant/);
});

t.test('alternative solutions (solution.ts `alternativeSolutions`) are run on every variant and must pass', async (t) => {
  const A1C = 'endocrinology/a1c-glycemic-control';
  const copy = (alternatives: string): string => {
    // A fresh folder per copy: modules are cached by path, so a reused folder would serve the first copy's solution.
    const root = mkdtempSync(join(tmpdir(), 'alt-solutions-'));
    t.teardown(() => rmSync(root, { recursive: true, force: true }));
    cpSync(join(FIXTURE_TASKS, A1C), join(root, A1C), { recursive: true });
    absolutize(join(root, A1C));
    const path = join(root, A1C, 'solution.ts');
    writeFileSync(path, `${readFileSync(path, 'utf8')}\n${alternatives}\n`);
    return root;
  };
  const good = await checkTask(A1C, gym, { tasksDir: copy('export const alternativeSolutions = { again: solution };'), mutation: false });
  t.ok(good.ok, good.problems.join('\n'));
  const bad = await checkTask(A1C, gym, {
    tasksDir: copy('export const alternativeSolutions = { again: solution, guess: async ({ finish }: SolutionContext) => { await finish(\'{"hba1c": 1, "atGoal": true}\'); } };'),
    mutation: false,
  });
  t.notOk(bad.ok);
  t.match(bad.problems.join('\n'), /\[dm-chen\] alternative solution 'guess' fails: .*latest_a1c_value/);
  t.notMatch(bad.problems.join('\n'), /alternative solution 'again'/);
  const malformed = await checkTask(A1C, gym, { tasksDir: copy('export const alternativeSolutions = { sql: 42 };') });
  t.notOk(malformed.ok);
  t.match(malformed.problems.join('\n'), /alternativeSolutions must map names to async functions/);
});

t.test('case suites: correct cases must pass everywhere, wrong cases must be caught (by the checkpoint they name)', async (t) => {
  const A1C = 'endocrinology/a1c-glycemic-control';
  // Cases read the chart over plain HTTP; `latest` is the newest HbA1c, `oldest` the first (they differ for dm-chen).
  const read = `const r = await ctx.http.search('Observation', { patient: ctx.patient, code: 'http://loinc.org|4548-4' });
  const sorted = r.sort((a: any, b: any) => String(a.effectiveDateTime).localeCompare(String(b.effectiveDateTime)));
  const latest = sorted[sorted.length - 1].valueQuantity.value; const oldest = sorted[0].valueQuantity.value;`;
  const caseFile = (body: string, exports = '') => `${exports}\nexport default async function (ctx: any) {\n  ${read}\n  ${body}\n}\n`;
  const withCases = (cases: Record<string, string>): string => {
    const root = mkdtempSync(join(tmpdir(), 'cases-'));
    t.teardown(() => rmSync(root, { recursive: true, force: true }));
    cpSync(join(FIXTURE_TASKS, A1C), join(root, A1C), { recursive: true });
    absolutize(join(root, A1C));
    for (const [file, text] of Object.entries(cases)) {
      mkdirSync(join(root, A1C, 'cases', file.split('/')[0]!), { recursive: true });
      writeFileSync(join(root, A1C, 'cases', file), text);
    }
    return root;
  };
  const good = await checkTask(A1C, gym, {
    mutation: false,
    tasksDir: withCases({
      'correct/prose.ts': caseFile('await ctx.submit(`Latest A1c ${latest}%. ${latest < 7 ? "At goal." : "Not at goal."}`);'),
      'wrong/oldest.ts': caseFile('await ctx.submit(JSON.stringify({ hba1c: oldest, atGoal: oldest < 7 }));', "export const catches = ['latest_a1c_value'];\nexport const mustFail = 'some';"),
      'wrong/always-at-goal.ts': caseFile('await ctx.submit(JSON.stringify({ hba1c: latest, atGoal: true }));', "export const catches = ['goal_judgement'];\nexport const mustFail = 'some';"),
      'wrong/writes.ts': caseFile("await ctx.http.create({ resourceType: 'Flag', status: 'active', code: { text: 'A1c' }, subject: { reference: `Patient/${ctx.patient}` } }); await ctx.submit(JSON.stringify({ hba1c: latest, atGoal: latest < 7 }));", "export const catches = ['read_only'];"),
    }),
  });
  t.ok(good.ok, good.problems.join('\n'));
  t.same(good.cases.map((c) => [c.kind, c.name, c.ok]), [['correct', 'prose', true], ['wrong', 'always-at-goal', true], ['wrong', 'oldest', true], ['wrong', 'writes', true]]);
  t.equal(good.missingCases, '1/3 correct', 'a patient task with fewer than 3 correct cases is reported');
  t.same(good.cases.find((c) => c.name === 'writes')!.failed['dm-chen'], ['read_only']);

  const bad = await checkTask(A1C, gym, {
    mutation: false,
    tasksDir: withCases({
      // A correct clinical answer the grader is made to reject would show here; this one is simply wrong on purpose.
      'correct/rejected.ts': caseFile('await ctx.submit(JSON.stringify({ hba1c: oldest, atGoal: oldest < 7 }));', "export const description = 'answers with the oldest value';"),
      'wrong/uncaught.ts': caseFile('await ctx.submit(JSON.stringify({ hba1c: latest, atGoal: latest < 7 }));'),
      'wrong/other-checkpoint.ts': caseFile('await ctx.submit(JSON.stringify({ hba1c: latest, atGoal: !(latest < 7) }));', "export const catches = ['latest_a1c_value'];"),
      'wrong/not-a-case.ts': 'export const catches = [];\n',
    }),
  });
  t.notOk(bad.ok);
  const problems = bad.problems.join('\n');
  t.match(problems, /\[dm-chen\] correct case 'rejected' \(answers with the oldest value\) is rejected: latest_a1c_value/);
  t.match(problems, /wrong case 'uncaught' is not caught: every checkpoint passes/);
  t.match(problems, /wrong case 'other-checkpoint' is not caught: fails only goal_judgement, expected one of latest_a1c_value/);
  t.match(problems, /cases\/wrong\/not-a-case.ts must export default async function/);
});
