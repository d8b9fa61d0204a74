// The tasks folder as the gym's TaskSource: POST /gym/sessions {task, variant} gets the task's clock, fixture and
// instruction; the runner names task and variant when it creates an episode's session.
import t from 'tap';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TaskFolderSource } from '../../harness/task-source.ts';
import { readTaskSpec } from '../../harness/task-loader.ts';
import { FIXTURE_TASKS } from '../fixtures/fixture-tasks.ts';
import { runEpisode } from '../../harness/episode.ts';
import { GymClient } from '../../harness/gym-client.ts';
import { startBenchServer } from '../../harness/server.ts';
import { loadTask } from '../../harness/task-loader.ts';
import { nullAgent } from '../../harness/agents/null.ts';
import { buildApp } from '../../server/app.ts';
import { FhirError } from '../../resources/outcome.ts';

const HK = 'nephrology/hyperkalemia-ace-inhibitor';

/** The HTTP status a call throws (a FhirError), -1 for any other error, undefined when it returns. */
function status(fn: () => unknown): number | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof FhirError ? err.status : -1;
  }
  return undefined;
}
const POPULATION = 'cardiology/hypertension-bp-control-rate';

t.test('resolve: clock, fixture and the instruction bound to the variant patient', async (t) => {
  const source = new TaskFolderSource(FIXTURE_TASKS);
  const spec = readTaskSpec(HK, FIXTURE_TASKS);
  const setup = source.resolve(HK, 'hk-ramos')!;
  t.equal(setup.now, spec.now);
  t.equal(setup.instruction, spec.instruction.replaceAll('{patient}', 'hk-ramos'));
  t.match(setup.instruction, /^E-consult re Patient\/hk-ramos:/);
  t.equal(setup.fixture?.resourceType, 'Bundle');
  t.equal(setup.fixture?.type, 'transaction');
  t.ok(setup.fixture?.entry?.some((e) => e.resource?.id === 'hk-ramos'), 'the task fixture');
  t.same(Object.keys(setup).sort(), ['fixture', 'instruction', 'now', 'paraphrases'], 'nothing but the setup');

  const population = source.resolve(POPULATION, 'population')!;
  t.equal(population.instruction, readTaskSpec(POPULATION, FIXTURE_TASKS).instruction);
  t.notOk(population.fixture);
  t.ok(source.resolve(POPULATION, undefined), 'a population task needs no variant');
});

t.test('resolve: unknown tasks are undefined, impossible variants a 400', async (t) => {
  const source = new TaskFolderSource(FIXTURE_TASKS);
  for (const task of ['nephrology/no-such-task', 'nephrology', '../tasks/nephrology/hyperkalemia-ace-inhibitor', 'nephrology/../nephrology/hyperkalemia-ace-inhibitor', '', 'schema.json']) {
    t.equal(source.resolve(task, 'p1'), undefined, JSON.stringify(task));
  }
  t.equal(status(() => source.resolve(HK, undefined)), 400, 'a patient-level task needs its patient');
  t.equal(status(() => source.resolve(HK, '../Patient')), 400, 'a variant is a Patient id');
  t.equal(status(() => source.resolve(POPULATION, 'hk-ramos')), 400, 'a population task has one variant');
  t.equal(new TaskFolderSource('/nonexistent/tasks').available, false);
  t.equal(new TaskFolderSource('/nonexistent/tasks').resolve(HK, 'hk-ramos'), undefined);
});

t.test('resolve: an instruction without {patient} still names the patient; an invalid task.json is a 400', async (t) => {
  const dir = t.testdir({});
  cpSync(join(FIXTURE_TASKS, 'schema.json'), join(dir, 'schema.json'));
  mkdirSync(join(dir, 'nephrology'), { recursive: true });
  cpSync(join(FIXTURE_TASKS, HK), join(dir, HK), { recursive: true });
  const path = join(dir, HK, 'task.json');
  const spec = JSON.parse(readFileSync(path, 'utf8'));
  writeFileSync(path, JSON.stringify({ ...spec, instruction: 'Please review the potassium and act on it.' }));
  const source = new TaskFolderSource(dir);
  t.equal(source.resolve(HK, 'hk-ramos')?.instruction, 'Please review the potassium and act on it. (Patient/hk-ramos)');
  writeFileSync(path, JSON.stringify({ ...spec, level: 'nowhere' }));
  t.equal(status(() => source.resolve(HK, 'hk-ramos')), 400, 'an invalid task.json');
});

t.test('POST /gym/sessions {task, variant}: the session gets the task clock, fixture and instruction; unknown task 400', async (t) => {
  const { app } = buildApp({ tasks: new TaskFolderSource(FIXTURE_TASKS) });
  t.teardown(() => app.close());
  const post = (body: unknown) => app.inject({ method: 'POST', url: '/gym/sessions', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  const spec = readTaskSpec(HK, FIXTURE_TASKS);
  const created = await post({ task: HK, variant: 'hk-ramos' });
  t.equal(created.statusCode, 201, 'created');
  const session = created.json();
  t.equal(session.now, new Date(spec.now).toISOString());
  t.equal(session.instruction, spec.instruction.replaceAll('{patient}', 'hk-ramos'));
  t.same([session.task, session.variant], [HK, 'hk-ramos']);
  const base = `/fhir/_session/${session.id}`;
  const patient = await app.inject({ method: 'GET', url: `${base}/Patient/hk-ramos` });
  t.equal(patient.statusCode, 200, 'the fixture is in the session');
  t.equal((await app.inject({ method: 'GET', url: '/fhir/Patient/hk-ramos' })).statusCode, 404, 'and only there');
  const write = await app.inject({ method: 'POST', url: `${base}/Basic`, headers: { 'content-type': 'application/fhir+json' }, payload: JSON.stringify({ resourceType: 'Basic', code: { text: 'x' } }) });
  t.equal(write.json().meta.lastUpdated.slice(0, 10), spec.now.slice(0, 10), 'the session clock starts at the task now');

  for (const [body, what] of [
    [{ task: 'nephrology/no-such-task', variant: 'p1' }, 'unknown task'],
    [{ task: '../../etc/passwd' }, 'a path'],
    [{ task: HK }, 'no variant'],
    [{ task: POPULATION, variant: 'hk-ramos' }, 'a patient variant for a population task'],
  ] as const) {
    const res = await post(body);
    t.equal(res.statusCode, 400, what);
    t.equal(res.json().resourceType, 'OperationOutcome', what);
  }
  const explicit = await post({ task: HK, variant: 'hk-ramos', now: '2030-01-01T00:00:00Z' });
  t.equal(explicit.json().now, '2030-01-01T00:00:00.000Z', 'an explicit now wins over the task');
});

t.test('the runner names task and variant when it creates an episode session', async (t) => {
  const server = await startBenchServer({ patients: 0, tasksDir: FIXTURE_TASKS });
  t.teardown(() => server.close());
  const gym = new GymClient(server.url);
  const task = await loadTask(HK, FIXTURE_TASKS);
  const episode = await runEpisode({ task, variant: 'hk-ramos', trial: 1, agent: nullAgent, gym, keepSession: true });
  const session = (await gym.session(episode.result.session)) as unknown as Record<string, unknown>;
  t.same([session.task, session.variant], [HK, 'hk-ramos']);
  t.equal(session.instruction, task.spec.instruction.replaceAll('{patient}', 'hk-ramos'));
  t.equal(session.hasFixture, true);
  await gym.deleteSession(episode.result.session);
  // The in-process bench server resolves tasks: an unknown one is refused.
  await t.rejects(gym.createSession({ task: 'nephrology/no-such-task', variant: 'p1' }), /-> 400/);
});
