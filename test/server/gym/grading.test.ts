// Issue 19, items 1 and 2: the task catalogue (GET /gym/tasks, /gym/tasks/{id}) and grading over HTTP
// (POST /gym/sessions/{id}/grade), the end of an episode at its first submit, and variants checked at session creation.
import t from 'tap';
import { execFile } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../../server/app.ts';
import { FhirClient } from '../../../contracts/fhir-client.ts';
import { gradeEpisode } from '../../../harness/grade.ts';
import { GymClient } from '../../../harness/gym-client.ts';
import { startBenchServer } from '../../../harness/server.ts';
import { TaskFolderService } from '../../../harness/task-service.ts';
import { TaskFolderSource } from '../../../harness/task-source.ts';
import { discoverTaskIds, loadTask, readTaskSpec } from '../../../harness/task-loader.ts';
import { findVariants } from '../../../harness/variants.ts';
import { FIXTURE_TASKS } from '../../fixtures/fixture-tasks.ts';

const run = promisify(execFile);
const FLOW = join(fileURLToPath(new URL('.', import.meta.url)), 'python', 'episode_flow.py');
const HK = 'nephrology/hyperkalemia-ace-inhibitor';
const A1C = 'endocrinology/a1c-glycemic-control';
const POPULATION = 'cardiology/hypertension-bp-control-rate';
const JSON_HEADERS = { 'content-type': 'application/json' };

async function python(...args: string[]): Promise<any> {
  const { stdout } = await run('python3', [FLOW, ...args], { timeout: 120_000 });
  return JSON.parse(stdout);
}

t.test('a Python client (stdlib urllib) drives a whole episode over HTTP; its grade is the one ehr-gym run gives', async (t) => {
  const server = await startBenchServer({ patients: 0, tasksDir: FIXTURE_TASKS });
  t.teardown(() => server.close());
  const gym = new GymClient(server.url);
  const task = await loadTask(HK, FIXTURE_TASKS);

  const acted = await python('act', server.url, HK);
  t.ok(acted.catalogue.includes(HK), 'the catalogue lists the task');
  t.notOk(acted.catalogue.includes(A1C), 'filtered by specialty');
  t.same(acted.card.checkpoints.map((c: { id: string; weight: number }) => [c.id, c.weight]), task.spec.checkpoints.map((c) => [c.id, c.weight]));
  const variants = await findVariants(task, gym);
  t.same(acted.card.variants, variants, 'the variants are the runner\'s on this server');
  t.equal(acted.unknown_variant.status, 400);
  t.equal(acted.unknown_variant.outcome.resourceType, 'OperationOutcome');
  t.match(acted.unknown_variant.outcome.issue[0].diagnostics, `its variants on this server: ${variants.join(', ')}`);
  t.equal(acted.session.instruction, task.spec.instruction.replaceAll('{patient}', acted.session.variant));

  // What the runner does after an agent finished (harness/episode.ts): capture the session, then grade.
  const id: string = acted.session.id;
  const state = (await gym.session(id)) as unknown as { now: string; submission: { answer: unknown; files?: Record<string, string> } };
  const log = await gym.log(id);
  const changes = await gym.changes(id);
  const runner = await gradeEpisode(task, new FhirClient(acted.fhirBaseUrl), {
    now: state.now, patient: acted.session.variant, answer: state.submission.answer, files: state.submission.files ?? {}, log, changes,
  });

  const graded = await python('grade', server.url, id);
  const { grade } = graded;
  t.equal(grade.pass, true, 'the Python agent did the task');
  t.same(grade.verdicts, runner.verdicts, 'verdicts: the runner\'s, evidence and failure causes included');
  t.same([grade.pass, grade.score, grade.graderVersion, grade.writes, grade.toolCalls], [runner.pass, runner.score, runner.graderVersion, runner.writes, runner.toolCalls]);
  t.same(graded.grade_again, grade, 'grading again gives the same answer');
  t.same([grade.session, grade.task, grade.variant, grade.submitted], [id, HK, acted.session.variant, true]);
  t.same((await gym.session(id) as unknown as { ended: unknown }).ended, { at: grade.endedAt, graded: true }, 'the summary shows the end');
  for (const v of grade.verdicts) t.same(Object.keys(v).filter((k) => k !== 'failure').sort(), ['category', 'critical', 'evidence', 'id', 'pass', 'score', 'weight'], v.id);

  t.equal(graded.write_after_submit.status, 409, 'a write after the submit');
  t.equal(graded.write_after_submit.outcome.issue[0].code, 'conflict');
  t.equal(graded.second_submit.status, 409, 'a second submit');
  t.equal(graded.second_submit.outcome.resourceType, 'OperationOutcome');
  const after = (await gym.session(id)) as unknown as { submission: { answer: string } };
  t.match(after.submission.answer, /^Latest K/, 'the first answer stands');
});

/** The app over the fixture tasks, reached in process. */
function gym(t: { teardown(fn: () => unknown): void }, tasks: TaskFolderSource | null = new TaskFolderService(FIXTURE_TASKS)) {
  const { app } = buildApp(tasks ? { tasks } : {});
  t.teardown(() => app.close());
  const call = async (method: string, url: string, body?: unknown, contentType = 'application/json') => {
    const res = await app.inject({ method: method as 'GET', url, ...(body === undefined ? {} : { headers: { 'content-type': contentType }, payload: JSON.stringify(body) }) });
    return { status: res.statusCode, body: res.body ? res.json() : undefined };
  };
  const session = async (body: Record<string, unknown>) => {
    const res = await call('POST', '/gym/sessions', body);
    if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: string };
  };
  return { app, call, session };
}

t.test('GET /gym/tasks: every task, filtered by specialty, workflow, level and split; GET /gym/tasks/{id}', async (t) => {
  const { call } = gym(t);
  const all = await call('GET', '/gym/tasks');
  t.equal(all.status, 200);
  t.same(all.body.tasks.map((c: { id: string }) => c.id), discoverTaskIds(FIXTURE_TASKS));
  const spec = readTaskSpec(HK, FIXTURE_TASKS);
  const card = all.body.tasks.find((c: { id: string }) => c.id === HK);
  t.same(card, {
    id: HK, title: spec.title, specialty: spec.specialty, workflows: spec.workflows, level: spec.level, split: 'by-patient', continuation: false,
    checkpoints: spec.checkpoints.map((c) => ({ id: c.id, category: c.category, description: c.description, weight: c.weight, critical: c.critical ?? false })),
    guidelines: spec.guidelines,
  }, 'the card: identity, rubric outline and guidelines only');
  const ids = async (query: string) => (await call('GET', `/gym/tasks?${query}`)).body.tasks.map((c: { id: string }) => c.id);
  t.same(await ids('specialty=nephrology'), [HK]);
  t.same(await ids('workflow=deprescribing'), [HK]);
  t.same(await ids('level=population'), [POPULATION]);
  // Patient-level tasks have variants in both splits (contracts/splits.ts); the population task is held out.
  t.same(await ids('split=test'), discoverTaskIds(FIXTURE_TASKS));
  t.same(await ids('split=train'), discoverTaskIds(FIXTURE_TASKS).filter((id) => id !== POPULATION));
  t.same(await ids('split=held-out'), [POPULATION]);
  t.same(await ids('specialty=nephrology&level=population'), []);
  for (const query of ['level=everyone', 'colour=blue', 'split=dev']) {
    const res = await call('GET', `/gym/tasks?${query}`);
    t.equal(res.status, 400, query);
    t.equal(res.body.resourceType, 'OperationOutcome', query);
  }

  const one = await call('GET', `/gym/tasks/${HK}`);
  t.equal(one.status, 200);
  t.same(one.body, { ...card, variants: ['hk-okafor', 'hk-ramos'], variantSplits: { 'hk-okafor': 'train', 'hk-ramos': 'train' } }, 'the card, the variants on this server and their splits');
  t.same((await call('GET', `/gym/tasks/${POPULATION}`)).body.variants, ['population']);
  for (const url of ['/gym/tasks/nephrology/no-such-task', '/gym/tasks/nephrology', '/gym/tasks/..%2F..%2Fetc/passwd']) {
    const res = await call('GET', url);
    t.equal(res.status, 404, url);
    t.equal(res.body.resourceType, 'OperationOutcome', url);
  }
});

t.test('a server without a tasks folder: no catalogue and no grading, as 400 OperationOutcomes', async (t) => {
  for (const tasks of [null, new TaskFolderSource(FIXTURE_TASKS)]) {
    const { call, session } = gym(t, tasks);
    const list = await call('GET', '/gym/tasks');
    t.equal(list.status, 400);
    t.equal(list.body.issue[0].code, 'not-supported');
    const { id } = await session(tasks ? { task: HK, variant: 'hk-ramos' } : {});
    const graded = await call('POST', `/gym/sessions/${id}/grade`);
    t.equal(graded.status, 400);
    t.equal(graded.body.resourceType, 'OperationOutcome');
  }
});

t.test('POST /gym/sessions: an unknown variant or task is a 400 that lists what is valid', async (t) => {
  const { call, session } = gym(t);
  const unknown = await call('POST', '/gym/sessions', { task: HK, variant: 'nope-123' });
  t.equal(unknown.status, 400);
  t.same(unknown.body.issue[0].expression, ['variant']);
  t.equal(unknown.body.issue[0].diagnostics, `Task '${HK}' has no variant 'nope-123'; its variants on this server: hk-okafor, hk-ramos`);
  const none = await call('POST', '/gym/sessions', { task: HK });
  t.equal(none.status, 400);
  t.match(none.body.issue[0].diagnostics, /needs a variant; its variants on this server: hk-okafor, hk-ramos/);
  // A patient who exists but does not fit the task's binding (hk-nguyen's latest potassium is normal).
  t.equal((await call('POST', '/gym/sessions', { task: HK, variant: 'hk-nguyen' })).status, 400);
  const task = await call('POST', '/gym/sessions', { task: 'nephrology/no-such-task', variant: 'p1' });
  t.equal(task.status, 400);
  t.equal(task.body.resourceType, 'OperationOutcome');
  t.equal((await call('POST', '/gym/sessions', { task: POPULATION, variant: 'hk-ramos' })).status, 400);
  t.ok(await session({ task: HK, variant: 'hk-ramos' }), 'a listed variant');
  t.ok(await session({ task: POPULATION }), 'a population task needs no variant');
  t.ok(await session({ task: POPULATION, variant: 'population' }));
  // A request bringing its own fixture brings its own patients: the server's variant list cannot judge them.
  t.ok(await session({ task: HK, variant: 'my-patient', fixture: { resourceType: 'Bundle', type: 'transaction', entry: [] } }));
});

t.test('an episode ends with its first submit: writes and a second submit are 409, reads go on; reset reopens until graded', async (t) => {
  const { call, session } = gym(t);
  const { id } = await session({ task: HK, variant: 'hk-ramos' });
  const base = `/fhir/_session/${id}`;
  const basic = { resourceType: 'Basic', code: { text: 'x' } };
  t.equal((await call('POST', `${base}/Basic`, basic, 'application/fhir+json')).status, 201, 'writes before the submit');
  t.equal((await call('POST', `/gym/sessions/${id}/submit`, { answer: 'K 5.9' })).status, 200);
  const refused: [string, string, unknown, string?][] = [
    ['POST', `${base}/Basic`, basic],
    ['PUT', `${base}/Basic/b1`, { ...basic, id: 'b1' }],
    ['PATCH', `${base}/MedicationRequest/hk-ramos-lisinopril`, [{ op: 'replace', path: '/status', value: 'stopped' }], 'application/json-patch+json'],
    ['DELETE', `${base}/MedicationRequest/hk-ramos-lisinopril`, undefined],
    ['POST', base, { resourceType: 'Bundle', type: 'transaction', entry: [{ resource: basic, request: { method: 'POST', url: 'Basic' } }] }],
  ];
  for (const [method, url, body, type] of refused) {
    const res = await call(method, url, body, type ?? 'application/fhir+json');
    t.equal(res.status, 409, `${method} ${url}`);
    t.equal(res.body.issue[0].code, 'conflict', `${method} ${url}`);
  }
  const batchOfReads = { resourceType: 'Bundle', type: 'batch', entry: [{ request: { method: 'GET', url: 'Patient/hk-ramos' } }] };
  t.equal((await call('POST', base, batchOfReads, 'application/fhir+json')).status, 200, 'a batch of reads is no write');
  t.equal((await call('GET', `${base}/Patient/hk-ramos`)).status, 200, 'reads still answer');
  t.equal((await call('POST', `${base}/Patient/$validate`, { resourceType: 'Patient' }, 'application/fhir+json')).status, 200, 'a read-only operation');
  const tool = await call('POST', `/gym/sessions/${id}/tools/fhir_create`, { resourceType: 'Basic', resource: basic });
  t.equal(tool.status, 200);
  t.equal(tool.body.isError, true, 'a tool write is refused too');
  t.match(tool.body.text, /409|ended/);
  const log = (await call('GET', `/gym/sessions/${id}/log`)).body.entries;
  t.same(log.filter((e: { status: number }) => e.status === 409).map((e: { write: boolean }) => e.write), refused.map(() => true).concat(true), 'refused writes are audited as writes');
  const again = await call('POST', `/gym/sessions/${id}/submit`, { answer: 'K 6.0' });
  t.equal(again.status, 409);
  t.equal((await call('GET', `/gym/sessions/${id}`)).body.submission.answer, 'K 5.9', 'the first answer stands');

  t.equal((await call('POST', `/gym/sessions/${id}/reset`)).status, 200, 'a reset before grading reopens the episode');
  t.equal((await call('POST', `${base}/Basic`, basic, 'application/fhir+json')).status, 201);
  t.equal((await call('POST', `/gym/sessions/${id}/submit`, { answer: 'K 5.9' })).status, 200);
  t.equal((await call('POST', `/gym/sessions/${id}/grade`)).status, 200);
  const reset = await call('POST', `/gym/sessions/${id}/reset`);
  t.equal(reset.status, 409, 'a graded session cannot be reset (its grade showed the evidence)');
  t.equal(reset.body.resourceType, 'OperationOutcome');

  // The default session (/fhir) is no episode: its submits do not end anything.
  t.equal((await call('POST', '/fhir/Basic', basic, 'application/fhir+json')).status, 201);
});

t.test('POST /gym/sessions/{id}/grade: as the session stands, ending it; deterministic; the grader\'s reads are not the agent\'s', async (t) => {
  const { call, session } = gym(t);
  const variant = ((await call('GET', `/gym/tasks/${A1C}`)).body.variants as string[])[0];
  const { id } = await session({ task: A1C, variant });
  t.equal((await call('GET', `/fhir/_session/${id}/Observation?patient=${variant}&code=http://loinc.org|4548-4&_sort=-date`)).status, 200);
  const before = (await call('GET', `/gym/sessions/${id}/log`)).body.entries;
  const first = await call('POST', `/gym/sessions/${id}/grade`);
  t.equal(first.status, 200);
  t.equal(first.body.submitted, false, 'graded without an answer');
  t.equal(first.body.pass, false);
  t.ok(first.body.verdicts.find((v: { id: string }) => v.id === 'retrieved_latest_a1c'), 'verdicts per checkpoint');
  t.ok(first.body.verdicts.filter((v: { pass: boolean }) => !v.pass).every((v: { failure?: string }) => typeof v.failure === 'string'), 'every failed verdict has its cause');
  t.match(first.body.graderVersion, /^\d+\.\d+\.\d+\+[0-9a-f]{12}$/);
  t.same((await call('GET', `/gym/sessions/${id}/log`)).body.entries, before, 'grading added nothing to the log');
  t.same((await call('POST', `/gym/sessions/${id}/grade`)).body, first.body, 'the same grade again');
  t.equal((await call('POST', `/gym/sessions/${id}/submit`, { answer: 'late' })).status, 409, 'grading ended the episode');
  t.equal((await call('POST', `/fhir/_session/${id}/Basic`, { resourceType: 'Basic', code: { text: 'x' } }, 'application/fhir+json')).status, 409);

  const plain = await session({});
  const untasked = await call('POST', `/gym/sessions/${plain.id}/grade`);
  t.equal(untasked.status, 400, 'a session without a task');
  t.match(untasked.body.issue[0].diagnostics, /has no task/);
  t.equal((await call('POST', '/gym/sessions/AAAAAAAAAAAAAAAAAAAAAAAA/grade')).status, 404, 'an unknown session');
  t.equal((await call('POST', '/gym/sessions/default/grade')).status, 403, 'the default session is the operator\'s (and no episode)');
});

t.test('a task that allows continuation: a submit does not end the episode, a grade does', async (t) => {
  const dir = t.testdir({});
  cpSync(join(FIXTURE_TASKS, 'schema.json'), join(dir, 'schema.json'));
  cpSync(join(FIXTURE_TASKS, HK), join(dir, HK), { recursive: true });
  const path = join(dir, HK, 'task.json');
  writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), continuation: true }));
  const { call, session } = gym(t, new TaskFolderService(dir));
  t.equal((await call('GET', `/gym/tasks/${HK}`)).body.continuation, true, 'the card says so');
  const { id } = await session({ task: HK, variant: 'hk-ramos' });
  const basic = { resourceType: 'Basic', code: { text: 'x' } };
  t.equal((await call('POST', `/gym/sessions/${id}/submit`, { answer: 'K 6.1' })).status, 200);
  t.equal((await call('POST', `/fhir/_session/${id}/Basic`, basic, 'application/fhir+json')).status, 201, 'writes go on');
  t.equal((await call('POST', `/gym/sessions/${id}/submit`, { answer: 'K 5.9' })).status, 200, 'a second submit');
  const graded = await call('POST', `/gym/sessions/${id}/grade`);
  t.equal(graded.status, 200);
  t.equal(graded.body.verdicts.find((v: { id: string }) => v.id === 'stated_potassium').pass, true, 'the last answer counts');
  t.equal((await call('POST', `/fhir/_session/${id}/Basic`, basic, 'application/fhir+json')).status, 409, 'the grade ends it');
  t.equal((await call('POST', `/gym/sessions/${id}/submit`, { answer: 'K 6.1' })).status, 409);
});
