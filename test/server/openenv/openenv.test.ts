// Issue 21, items 1 and 2: the OpenEnv surface (/openenv) against a listening server. A Python client written only
// against the OpenEnv contract (stdlib urllib, and an RFC 6455 client over a socket) drives whole episodes over HTTP
// and over the WebSocket; the reward and per-checkpoint verdicts it gets equal the gym API's grade for the same actions
// (run through POST /gym/sessions/{id}/tools/{name}). Then the refusals (422 for what does not fit the schema, 404
// for unknown episodes), the shapes of schema/metadata/health, MCP, seeded sampling, shaped rewards, and that nothing
// of the grader is shown before the end and no infrastructure failure becomes a reward.
import t, { type Test } from 'tap';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { WebSocket } from 'ws';
import { buildApp } from '../../../server/app.ts';
import { noClientLimits } from '../../../server/gym/sessions.ts';
import { agentTools } from '../../../server/tools/index.ts';
import { startBenchServer, type BenchServer } from '../../../harness/server.ts';
import { TaskFolderService } from '../../../harness/task-service.ts';
import { discoverTaskIds, readTaskSpec } from '../../../harness/task-loader.ts';
import type { GradeReport, GradeRequest, LocalServer } from '../../../server/gym/task-service.ts';
import { FIXTURE_TASKS } from '../../fixtures/fixture-tasks.ts';

const run = promisify(execFile);
const CLIENT = join(fileURLToPath(new URL('.', import.meta.url)), 'python', 'openenv_client.py');
const HK = 'nephrology/hyperkalemia-ace-inhibitor';
const TOOL_NAMES = agentTools.map((a) => a.definition.name);

async function python(...args: string[]): Promise<any> {
  const { stdout } = await run('python3', [CLIENT, ...args], { timeout: 240_000, maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout);
}

let server: BenchServer;
t.before(async () => {
  server = await startBenchServer({ patients: 0, tasksDir: FIXTURE_TASKS });
});
t.teardown(() => server?.close());

async function call(method: string, path: string, body?: unknown, raw?: string): Promise<{ status: number; body: any; type: string | null }> {
  const response = await fetch(server.url + path, {
    method, ...(body !== undefined || raw !== undefined ? { headers: { 'content-type': 'application/json' }, body: raw ?? JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, type: response.headers.get('content-type') };
}

/** A verdict as the observation's per-checkpoint vector carries it. */
const vectorOf = (verdicts: { id: string; category: string; weight: number; critical: boolean; pass: boolean; score: number }[]) =>
  verdicts.map(({ id, category, weight, critical, pass, score }) => ({ id, category, weight, critical, pass, score }));

/** Nothing of the grader (verdicts, score, pass) in an observation or state before the episode's end. */
function assertNoGradeBeforeEnd(t: Test, answers: any[], states: any[]) {
  const notes = readTaskSpec(HK, FIXTURE_TASKS).notes!;
  const checkpointIds = readTaskSpec(HK, FIXTURE_TASKS).checkpoints.map((c) => c.id);
  for (const [i, a] of answers.entries()) {
    const text = JSON.stringify(a);
    t.same([a.observation.pass, a.observation.score, a.observation.checkpoints, a.observation.grader_version], [null, null, null, null], `observation ${i}: no grade`);
    t.notOk(checkpointIds.some((id) => text.includes(id)) || text.includes(notes), `observation ${i}: no checkpoint or maintainer's note`);
  }
  for (const [i, s] of states.entries()) t.same([s.reward, s.pass, s.done], [null, null, false], `state ${i}: no reward yet`);
}

t.test('HTTP: a stdlib Python client plays a whole episode by episode_id; its reward and checkpoints are the gym API\'s grade for the same actions', async (t) => {
  const seen = await python('http', server.url, HK, 'hk-ramos');
  const spec = readTaskSpec(HK, FIXTURE_TASKS);
  const { reset, steps, gym } = seen;
  t.same(Object.keys(reset).sort(), ['done', 'observation', 'reward'], 'OpenEnv\'s three fields and no others');
  t.same([reset.reward, reset.done, reset.observation.step_count], [null, false, 0]);
  t.equal(reset.observation.instruction, spec.instruction.replaceAll('{patient}', 'hk-ramos'));
  t.same(reset.observation.tools.map((tool: { name: string }) => tool.name), TOOL_NAMES, 'the tools, as MCP lists them');

  const final = steps.at(-1);
  const before = steps.slice(0, -1);
  t.equal(steps.length, 7);
  t.same(steps.map((s: any) => s.observation.step_count), [1, 2, 3, 4, 5, 6, 7]);
  t.same(before.map((s: any) => [s.reward, s.done]), before.map(() => [null, false]), 'reward null until the end');
  assertNoGradeBeforeEnd(t, [reset, ...before], seen.states_before_steps);
  t.same(steps[0].observation.error, { error_type: 'tool_not_found', message: steps[0].observation.result }, 'an unknown tool: an observation, not a refusal');
  t.same(steps.map((s: any) => s.observation.is_error), gym.results.map((r: any) => r.is_error), 'each tool call ends as in the gym API');

  t.equal(final.done, true);
  t.equal(final.observation.tool_name, 'finish', 'the final answer is the finish tool');
  t.equal(final.reward, gym.grade.score, 'reward: the gym grade\'s checkpoint score');
  t.equal(final.observation.score, gym.grade.score);
  t.equal(final.observation.pass, gym.grade.pass);
  t.equal(gym.grade.pass, true, 'the scripted agent does the task');
  t.same(final.observation.checkpoints, vectorOf(gym.grade.verdicts), 'the per-checkpoint vector: the gym grade\'s verdicts');
  t.equal(final.observation.grader_version, gym.grade.graderVersion);
  t.same(vectorOf(seen.own_session_grade.verdicts), final.observation.checkpoints, 'the episode\'s own session graded through the gym API: the same');
  t.match(seen.final_state, { episode_id: reset.observation.episode_id, step_count: 7, task: HK, variant: 'hk-ramos', seed: 7, done: true, reward: gym.grade.score, pass: true, grade_error: null });
  t.equal(seen.step_after_done.status, 409, 'a step after the end');
  t.type(seen.step_after_done.body.detail, 'string');
});

t.test('WebSocket: the same policy over GET /openenv/ws (RFC 6455 client in stdlib Python), the variant drawn from the seed', async (t) => {
  const seen = await python('ws', server.url, HK, '3');
  const { reset, steps, gym } = seen;
  t.equal(reset.type, 'observation');
  t.same([reset.data.reward, reset.data.done], [null, false]);
  // The seed decides the variant: an HTTP reset with the same task and seed gets the same one.
  const again = await call('POST', '/openenv/reset', { task: HK, seed: 3 });
  t.equal(again.body.observation.variant, reset.data.observation.variant, 'the same seed, the same variant');
  t.same(seen.tools.data.result.tools.map((tool: { name: string }) => tool.name), TOOL_NAMES, 'MCP tools/list over the WebSocket');
  t.same(seen.states_before_steps.map((s: any) => s.type), seen.states_before_steps.map(() => 'state'));
  assertNoGradeBeforeEnd(t, [reset.data, ...steps.slice(0, -1)], seen.states_before_steps.map((s: any) => s.data));

  const final = steps.at(-1);
  t.equal(final.done, true);
  t.equal(final.reward, gym.grade.score);
  t.equal(final.observation.pass, gym.grade.pass);
  t.same(final.observation.checkpoints, vectorOf(gym.grade.verdicts), 'the gym grade for the same actions');
  t.same(vectorOf(seen.own_session_grade.verdicts), final.observation.checkpoints);
  t.match(seen.final_state.data, { step_count: 7, done: true, reward: gym.grade.score, seed: 3 });
  t.equal(seen.closed, null, 'a close message: the server closes the connection');
  t.equal(seen.session_after_close, 404, 'and deletes the episode\'s session');
});

t.test('WebSocket refusals carry OpenEnv\'s error codes and leave the connection usable; an episode id another reset took over is not stepped or closed', async (t) => {
  const seen = await python('ws-errors', server.url, HK, 'hk-ramos');
  t.equal(seen.invalid_json.data.code, 'INVALID_JSON');
  t.equal(seen.unknown_type.data.code, 'UNKNOWN_TYPE');
  t.match(seen.step_before_reset.data, { code: 'EXECUTION_ERROR', message: /reset first/ });
  t.same(seen.bad_action.data, { message: 'Invalid message', code: 'VALIDATION_ERROR', errors: [{ type: 'required', loc: ['data', 'answer'], msg: 'must have required property \'answer\'' }] });
  t.same(seen.bad_reset.data.errors.map((e: { loc: string[] }) => e.loc), [['data', 'seed']]);
  t.equal(seen.extra_field.data.code, 'VALIDATION_ERROR');
  t.same(seen.state_without_episode, { type: 'state', data: { episode_id: null, step_count: 0 } });
  t.match(seen.step_after_takeover.data, { code: 'EXECUTION_ERROR', status: 409, message: /replaced by another reset/ }, 'an episode id taken over by another reset');
  t.same(seen.http_episode_after_ws_close, { status: 200, step_count: 0 }, 'the connection closing leaves the new holder\'s episode alone');
});

t.test('shaped rewards: each checkpoint\'s normalized weight once, when it first becomes satisfied; the final reward is still the score', async (t) => {
  const seen = await python('http', server.url, HK, 'hk-okafor', 'shaped');
  const { steps, gym } = seen;
  const before = steps.slice(0, -1);
  for (const s of before) {
    t.equal(s.reward, s.observation.shaped_reward, `step ${s.observation.step_count}: the reward is the shaped reward`);
    t.ok(s.reward >= 0 && s.reward <= 1);
    t.same([s.observation.pass, s.observation.checkpoints], [null, null], 'still no verdicts');
  }
  t.equal(before[0].reward, 0, 'an unknown tool changes nothing');
  t.ok(before[1].reward > 0, 'reading the potassium satisfies a checkpoint');
  const final = steps.at(-1);
  t.equal(final.reward, gym.grade.score, 'the final reward: the score, not a shaped increment');
  const gained = steps.reduce((sum: number, s: any) => sum + s.observation.shaped_reward, 0);
  t.ok(gained > 0 && gained <= 1 + 1e-9, `shaped rewards sum to at most 1 (${gained})`);
});

t.test('HTTP refusals: 422 for what does not fit the schema (FastAPI\'s detail), 404 for unknown episodes, 400 for unknown tasks', async (t) => {
  const reset = await call('POST', '/openenv/reset', { task: HK, variant: 'hk-ramos' });
  t.equal(reset.status, 200);
  t.match(reset.type, /^application\/json/);
  const episode = reset.body.observation.episode_id;
  const step = (body: unknown) => call('POST', '/openenv/step', body);
  const cases: [string, unknown, (string | number)[]][] = [
    ['no action', { episode_id: episode }, ['body', 'action']],
    ['a string action', { episode_id: episode, action: 'fhir_read' }, ['body', 'action']],
    ['no tool_name', { episode_id: episode, action: { type: 'call_tool' } }, ['body', 'action', 'tool_name']],
    ['an unknown action type', { episode_id: episode, action: { type: 'teleport' } }, ['body', 'action', 'type']],
    ['arguments not an object', { episode_id: episode, action: { tool_name: 'fhir_read', arguments: 'Patient/1' } }, ['body', 'action', 'arguments']],
    ['an extra field', { episode_id: episode, action: { tool_name: 'fhir_read', arguments: {}, colour: 'blue' } }, ['body', 'action', 'colour']],
    ['a final answer without answer', { episode_id: episode, action: { type: 'final_answer' } }, ['body', 'action', 'answer']],
    ['a non-positive timeout', { episode_id: episode, action: { tool_name: 'fhir_read' }, timeout_s: 0 }, ['body', 'timeout_s']],
    ['no episode_id', { action: { type: 'final_answer', answer: 'x' } }, ['body', 'episode_id']],
  ];
  for (const [what, body, loc] of cases) {
    const res = await step(body);
    t.equal(res.status, 422, what);
    t.same(res.body.detail.map((d: { loc: unknown }) => d.loc), [loc], what);
    t.type(res.body.detail[0].msg, 'string', what);
  }
  const notJson = await call('POST', '/openenv/step', undefined, '{"action": ');
  t.equal(notJson.status, 422, 'a body that is not JSON');
  t.equal(notJson.body.detail[0].type, 'json_invalid');
  t.same((await call('GET', `/openenv/state?episode_id=${episode}`)).body.step_count, 0, 'refused steps are not steps');

  for (const [what, body] of [['seed -1', { seed: -1 }], ['seed 1.5', { seed: 1.5 }], ['seed "1"', { seed: '1' }], ['a long episode_id', { episode_id: 'x'.repeat(256) }], ['an unknown reward_mode', { reward_mode: 'dense' }], ['a variant without its task', { variant: 'hk-ramos' }]] as const) {
    const res = await call('POST', '/openenv/reset', body);
    t.equal(res.status, 422, what);
    t.equal(res.body.detail.length, 1, what);
  }

  const unknown = await step({ episode_id: 'no-such-episode', action: { tool_name: 'fhir_read' } });
  t.equal(unknown.status, 404);
  t.match(unknown.body.detail, /No episode 'no-such-episode'/);
  t.equal((await call('GET', '/openenv/state?episode_id=no-such-episode')).status, 404);
  t.same((await call('GET', '/openenv/state')).body, { episode_id: null, step_count: 0 }, 'stateless GET /state: a fresh environment');
  const noTask = await call('POST', '/openenv/reset', { task: 'nephrology/no-such-task' });
  t.equal(noTask.status, 400);
  const noVariant = await call('POST', '/openenv/reset', { task: HK, variant: 'nope-1' });
  t.equal(noVariant.status, 400);
  t.match(noVariant.body.detail, /its variants on this server: hk-okafor, hk-ramos/, 'the gym API\'s variant check');
  t.equal((await call('GET', '/openenv/nothing-here')).status, 404);
  t.equal((await call('GET', '/openenv/ws')).status, 426, 'GET /ws without an upgrade');
});

t.test('GET /openenv/schema, /metadata, /health: OpenEnv\'s shapes; the observations and states served fit the schema', async (t) => {
  const schema = (await call('GET', '/openenv/schema')).body;
  t.same(Object.keys(schema).sort(), ['action', 'observation', 'state']);
  const ajv = new Ajv({ strict: false });
  const action = ajv.compile(schema.action);
  t.ok(action({ type: 'call_tool', tool_name: 'fhir_read', arguments: { resourceType: 'Patient', id: 'hk-ramos' } }));
  t.ok(action({ tool_name: 'fhir_search', arguments: {} }), 'type defaults to call_tool');
  t.ok(action({ type: 'final_answer', answer: 'done' }));
  t.notOk(action({ type: 'final_answer' }));
  t.notOk(action({ tool_name: 'fhir_read', extra: 1 }));

  const reset = (await call('POST', '/openenv/reset', { task: HK, variant: 'hk-okafor' })).body;
  const step = (await call('POST', '/openenv/step', { episode_id: reset.observation.episode_id, action: { tool_name: 'fhir_read', arguments: { resourceType: 'Patient', id: 'hk-okafor' } } })).body;
  const done = (await call('POST', '/openenv/step', { episode_id: reset.observation.episode_id, action: { type: 'final_answer', answer: 'nothing done' } })).body;
  const observation = ajv.compile(schema.observation);
  for (const [what, answer] of [['reset', reset], ['step', step], ['final step', done]] as const) t.ok(observation(answer.observation), `${what}: ${JSON.stringify(observation.errors)}`);
  t.equal(done.done, true);
  t.equal(done.observation.pass, false, 'doing nothing fails');
  t.ok(done.reward >= 0 && done.reward < 1);
  const state = ajv.compile(schema.state);
  t.ok(state((await call('GET', `/openenv/state?episode_id=${reset.observation.episode_id}`)).body));
  t.ok(state((await call('GET', '/openenv/state')).body));

  const metadata = (await call('GET', '/openenv/metadata')).body;
  t.equal(metadata.name, 'ehr-gym');
  t.type(metadata.description, 'string');
  t.match(metadata.readme_content, /OpenEnv/);
  t.same((await call('GET', '/openenv/health')).body, { status: 'healthy' });
});

t.test('POST /openenv/mcp: JSON-RPC tools/list and tools/call; a call is a step of the named episode and finish ends it', async (t) => {
  const rpc = async (body: unknown) => (await call('POST', '/openenv/mcp', body)).body;
  const list = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  t.same(list.result.tools.map((tool: { name: string }) => tool.name), TOOL_NAMES);
  const episode = (await call('POST', '/openenv/reset', { task: HK, variant: 'hk-ramos', episode_id: 'mcp-episode' })).body.observation.episode_id;
  t.equal(episode, 'mcp-episode', 'the client\'s own episode id');
  const read = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'fhir_read', arguments: { resourceType: 'Patient', id: 'hk-ramos' }, session_id: episode } });
  t.equal(read.id, 2);
  t.equal(read.result.isError, false);
  t.equal(JSON.parse(read.result.content[0].text).id, 'hk-ramos');
  t.equal((await call('GET', `/openenv/state?episode_id=${episode}`)).body.step_count, 1, 'an MCP call is a step');
  const finish = await rpc({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'finish', arguments: { answer: 'K not checked' }, session_id: episode } });
  t.equal(finish.result.isError, false);
  t.notOk(JSON.stringify(finish).includes('checkpoint'), 'the MCP result carries no grade');
  const state = (await call('GET', `/openenv/state?episode_id=${episode}`)).body;
  t.match(state, { done: true, pass: false, step_count: 2 });
  t.type(state.reward, 'number', 'the trainer reads the reward from state');
  t.equal((await rpc({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'fhir_read', arguments: {}, session_id: episode } })).error.code, -32000, 'the episode is over');

  t.equal((await rpc({ jsonrpc: '2.0', id: 5, method: 'resources/list' })).error.code, -32601);
  t.equal((await rpc({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'fhir_read' } })).error.code, -32602, 'no episode named');
  t.equal((await rpc({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'fhir_read', session_id: 'nope' } })).error.code, -32602);
  t.equal((await rpc({ id: 8, method: 'tools/list' })).error.code, -32600, 'not JSON-RPC 2.0');
});

t.test('reset: the seed draws task and variant deterministically, within a split; a reused episode_id replaces its episode', async (t) => {
  const first = (await call('POST', '/openenv/reset', { seed: 11 })).body.observation;
  const second = (await call('POST', '/openenv/reset', { seed: 11 })).body.observation;
  t.same([first.task, first.variant], [second.task, second.variant], 'the same seed, the same draw');
  t.ok(discoverTaskIds(FIXTURE_TASKS).includes(first.task));
  const draws = new Set<string>();
  for (let seed = 0; seed < 12; seed++) draws.add((await call('POST', '/openenv/reset', { seed })).body.observation.task);
  t.ok(draws.size > 1, `seeds reach several tasks (${[...draws].join(', ')})`);
  // Splits (contracts/splits.ts): both HK patients hash to train, so HK has no test variant; the population task is held out.
  t.equal((await call('POST', '/openenv/reset', { seed: 1, split: 'test' })).status, 200);
  t.equal((await call('POST', '/openenv/reset', { seed: 1, split: 'held-out' })).body.observation.variant, 'population');
  t.equal((await call('POST', '/openenv/reset', { task: HK, split: 'test' })).status, 400, 'no variant of that split');
  t.equal((await call('POST', '/openenv/reset', { seed: 1, split: 'dev' })).status, 422, 'no such split');

  const one = (await call('POST', '/openenv/reset', { task: HK, variant: 'hk-ramos', episode_id: 'worker-1' })).body;
  const sessionOne = (await call('GET', '/openenv/state?episode_id=worker-1')).body.session_id;
  await call('POST', '/openenv/step', { episode_id: 'worker-1', action: { tool_name: 'fhir_read', arguments: { resourceType: 'Patient', id: 'hk-ramos' } } });
  const two = (await call('POST', '/openenv/reset', { task: HK, variant: 'hk-okafor', episode_id: 'worker-1' })).body;
  t.same([one.observation.episode_id, two.observation.episode_id], ['worker-1', 'worker-1']);
  const state = (await call('GET', '/openenv/state?episode_id=worker-1')).body;
  t.same([state.step_count, state.variant], [0, 'hk-okafor'], 'a fresh episode under the same id');
  t.equal((await call('GET', `/gym/sessions/${sessionOne}`)).status, 404, 'the replaced episode\'s session is gone');
});

/** The fixture tasks, graded by a grader that cannot run (a crashed grading service). */
class BrokenGrader extends TaskFolderService {
  override async grade(_request: GradeRequest, _server: LocalServer): Promise<GradeReport> {
    throw new Error('grader unavailable');
  }
}

t.test('infrastructure errors never produce a reward: a grade that fails is a 503 and the episode stays unscored', async (t) => {
  const { app } = buildApp({ tasks: new BrokenGrader(FIXTURE_TASKS), gym: noClientLimits });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  const post = async (path: string, body: unknown) => {
    const response = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: await response.json() as any };
  };
  const reset = await post('/openenv/reset', { task: HK, variant: 'hk-ramos' });
  const episode = reset.body.observation.episode_id;
  const ended = await post('/openenv/step', { episode_id: episode, action: { type: 'final_answer', answer: 'K 6.1' } });
  t.equal(ended.status, 503);
  t.match(ended.body.detail, /Infrastructure error/);
  t.notOk('reward' in ended.body, 'no reward in the answer');
  const state = await (await fetch(`${url}/openenv/state?episode_id=${episode}`)).json() as any;
  t.match(state, { done: true, reward: null, pass: null });
  t.match(state.grade_error, /grade answered/);
  t.equal((await post('/openenv/step', { episode_id: episode, action: { tool_name: 'fhir_read' } })).status, 409);
  const shaped = await post('/openenv/reset', { task: HK, variant: 'hk-ramos', reward_mode: 'shaped' });
  t.equal(shaped.status, 503, 'a shaped episode whose start cannot be graded does not start');
});

t.test('closing the server ends open WebSocket sessions and their episodes', async (t) => {
  const { app, sessions } = buildApp({ tasks: new TaskFolderService(FIXTURE_TASKS), gym: noClientLimits });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const ws = new WebSocket(`${url.replace('http://', 'ws://')}/openenv/ws`);
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  const answer = new Promise<any>((resolve) => ws.once('message', (data) => resolve(JSON.parse(data.toString()))));
  ws.send(JSON.stringify({ type: 'reset', data: { task: HK, variant: 'hk-ramos' } }));
  const episode = (await answer).data.observation.episode_id;
  t.ok(sessions.has(episode), 'the episode\'s session is live');
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  await app.close();
  t.type(await closed, 'number', 'the connection ended with the server');
  t.notOk(sessions.has(episode), 'and its episode\'s session with it');
});

t.test('an upgrade to any other path is refused', async (t) => {
  const ws = new WebSocket(`${server.url.replace('http://', 'ws://')}/gym/ws`);
  const status = await new Promise<number | undefined>((resolve) => {
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode));
    ws.once('error', () => resolve(undefined));
  });
  t.equal(status, 404);
});

t.test('grading the episode\'s session through the gym API mid-episode ends the episode: the grade never comes before the end', async (t) => {
  const reset = (await call('POST', '/openenv/reset', { task: HK, variant: 'hk-ramos' })).body;
  const episode = reset.observation.episode_id;
  await call('POST', '/openenv/step', { episode_id: episode, action: { tool_name: 'fhir_read', arguments: { resourceType: 'Patient', id: 'hk-ramos' } } });
  const { session_id: session } = (await call('GET', `/openenv/state?episode_id=${episode}`)).body;
  t.equal((await call('POST', `/gym/sessions/${session}/grade`)).status, 200, 'the gym grades the session as it stands');
  const after = await call('POST', '/openenv/step', { episode_id: episode, action: { tool_name: 'fhir_read', arguments: { resourceType: 'Patient', id: 'hk-ramos' } } });
  t.equal(after.status, 409, 'and the episode is over: no step can use what the grade showed');
  t.match(after.body.detail, /ended through the gym API/);
});
