// Honest accounting over a whole run: episodes the model API failed are infrastructure errors, out of pass@1 and
// pass^k with their count shown, in the per-episode records, summary.json and the printed summary; `ehr-gym run` exits
// non-zero for them unless --allow-errors; progress is plain lines when stderr is a pipe; custom agent modules (.ts and
// .js) run through the same path. Fake model servers are real local HTTP servers.
import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAiAgent, openAiOptionsFromEnv } from '../../harness/agents/openai.ts';
import { INFRA_ERROR_EXIT_CODE, loadAgentModule } from '../../harness/cli.ts';
import { GymClient } from '../../harness/gym-client.ts';
import { runProvenance } from '../../harness/provenance.ts';
import { runBenchmark } from '../../harness/runner.ts';
import { runEpisode } from '../../harness/episode.ts';
import { summarize } from '../../harness/scoring.ts';
import { startBenchServer } from '../../harness/server.ts';
import { loadTask } from '../../harness/task-loader.ts';
import { FIXTURE_TASKS } from '../fixtures/fixture-tasks.ts';
import { completion, fakeModel, toolCall } from './agents/fake-model.ts';

const projectRoot = new URL('../../', import.meta.url).pathname;
const server = await startBenchServer({ patients: 0, tasksDir: FIXTURE_TASKS });
t.teardown(() => server.close());
const gym = new GymClient(server.url);
const task = await loadTask('endocrinology/a1c-glycemic-control', FIXTURE_TASKS);

t.test('runBenchmark: infrastructure errors counted apart in records, summary.json and progress lines', async (t) => {
  // The model answers every patient but dm-chen, for whom the API keeps failing.
  const llm = await fakeModel(t, [(req) => {
    const instruction: string = req.body.messages[1].content;
    if (instruction.includes('dm-chen')) return { status: 503, body: { error: { message: 'overloaded' } } };
    const patient = /Patient\/([\w-]+)/.exec(instruction)![1];
    const tools = req.body.messages.filter((m: any) => m.role === 'tool').length;
    return tools === 0
      ? completion({ tool_calls: [toolCall('s', 'fhir_search', { resourceType: 'Observation', params: { patient, code: 'http://loinc.org|4548-4', _sort: '-date', _count: 1 } })] })
      : completion({ tool_calls: [toolCall('f', 'finish', { answer: 'unsure' })] });
  }]);
  const agent = openAiAgent(openAiOptionsFromEnv({ baseUrl: `${llm.url}/v1`, apiKey: 'k', model: 'fake', maxTurns: 4, retries: 1, retryDelayMs: 1, timeoutMs: 10_000 }));
  const out = t.testdir({});
  const lines: string[] = [];
  const provenance = await runProvenance(server.url, { inProcess: server.inProcess, population: { seed: 7, patients: 3 } });
  const run = await runBenchmark({
    tasks: [task], agent, gym, trials: 2, concurrency: 2, outDir: out, progress: 'lines', progressLine: (l) => lines.push(l),
    provenance, price: { inputPerMillion: 1, outputPerMillion: 2 }, settings: { agent: 'openai', trials: 2 },
  });
  const variants = run.variants[task.spec.id];
  t.ok(variants.includes('dm-chen') && variants.length >= 2, `variants ${variants}`);
  const infra = run.episodes.filter((e) => e.outcome === 'infra_error');
  t.same(infra.map((e) => e.variant), ['dm-chen', 'dm-chen']);
  const s = run.summary;
  t.equal(s.infraErrors, 2);
  t.equal(s.episodes, run.episodes.length - 2, 'scored episodes leave them out');
  t.equal(s.pass1, 0, 'the scored episodes all failed (the answer says nothing)');
  t.equal(s.byTask[task.spec.id].infraErrors, 2);
  t.equal(s.byTask[task.spec.id].episodes, s.episodes);
  t.equal(s.failedEpisodes.length, s.episodes);
  t.ok(s.failedEpisodes.every((f) => f.checkpoint === 'latest_a1c_value'), 'the first failing checkpoint in task order');
  t.same(s.infraErrorEpisodes.map((e) => e.variant), ['dm-chen', 'dm-chen']);
  t.match(s.infraErrorEpisodes[0].infraError, /model API failed after 1 retry: 503/);
  t.equal(s.retries, 2, 'one retry per infrastructure-ended episode');

  t.equal(lines.length, run.episodes.length, 'a line per finished episode');
  t.ok(lines.every((l) => /^\[\d+\/\d+\] endocrinology\/a1c-glycemic-control \S+ t[12]: /.test(l)));
  t.equal(lines.filter((l) => l.includes('INFRA ERROR model API failed')).length, 2);

  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
  t.equal(summary.summary.infraErrors, 2);
  t.match(summary.settings, { agent: 'openai', trials: 2, model: { provider: 'openai', model: 'fake', maxTurns: 4 } });
  t.same(summary.price, { inputPerMillion: 1, outputPerMillion: 2 });
  t.match(summary.provenance, { server: { url: server.url, software: 'ehr-gym' }, population: { seed: 7, patients: 3 } });
  t.ok(summary.startedAt && summary.endedAt && summary.wallTimeMs >= 0);
  t.same(summary.episodes.filter((e: any) => e.outcome === 'infra_error').map((e: any) => e.variant), ['dm-chen', 'dm-chen']);
  t.ok(summary.summary.tokens.prompt > 0 && summary.summary.cost > 0, 'totals: tokens and cost');
  t.ok(summary.summary.byTask[task.spec.id].meanDurationMs >= 0);

  const file = readdirSync(join(out, 'episodes')).find((f) => f.includes('dm-haddad') && f.endsWith('t1.json'))!;
  const episode = JSON.parse(readFileSync(join(out, 'episodes', file), 'utf8'));
  for (const key of ['startedAt', 'endedAt', 'durationMs', 'turns', 'tokens', 'cost', 'retries', 'toolsOffered', 'settings', 'provenance', 'outcome']) t.ok(key in episode, `episode records ${key}`);
  t.same(episode.turns.map((x: any) => x.finishReason), ['tool_calls', 'tool_calls']);
  t.ok(episode.turns.every((x: any) => typeof x.latencyMs === 'number' && x.usage.prompt === 100));
  t.match(episode.provenance, { server: { version: '0.1.0' }, population: { seed: 7 }, taskVersion: /^[0-9a-f]{12}$/, graderVersion: /^0\.1\.0\+[0-9a-f]{12}$/ });
  t.ok(episode.provenance.server.commit === undefined || /^[0-9a-f]{40}(-dirty)?$/.test(episode.provenance.server.commit));
});

/** A proxy in front of the bench server that answers 502 for the gym's tool route (a failing gym behind a gateway). */
async function failingToolsProxy(t: Test): Promise<string> {
  const proxy = createHttpServer(async (req, res) => {
    if (req.method === 'POST' && /^\/gym\/sessions\/[^/]+\/tools\//.test(req.url ?? '')) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway');
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length')) as Record<string, string>;
    const upstream = await fetch(server.url + req.url, { method: req.method, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) });
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

t.test('gym server failures are infrastructure errors too: a 5xx tool call, a session that cannot be created', async (t) => {
  const llm = await fakeModel(t, [() => completion({ tool_calls: [toolCall('r', 'fhir_read', { resourceType: 'Patient', id: 'dm-chen' })] })]);
  const agent = openAiAgent(openAiOptionsFromEnv({ baseUrl: `${llm.url}/v1`, apiKey: 'k', model: 'fake', maxTurns: 4, retries: 0, retryDelayMs: 1, timeoutMs: 10_000 }));
  const viaProxy = new GymClient(await failingToolsProxy(t));
  const { result } = await runEpisode({ task, variant: 'dm-chen', trial: 1, agent, gym: viaProxy });
  t.equal(result.outcome, 'infra_error');
  t.match(result.infraError, /^gym tool call fhir_read failed: POST \/gym\/sessions\/\S+\/tools\/fhir_read -> 502: bad gateway/);

  // Nothing listens there any more.
  const gone = await new Promise<string>((resolve) => {
    const probe = createHttpServer().listen(0, '127.0.0.1', () => {
      const url = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
      probe.close(() => resolve(url));
    });
  });
  const down = await runEpisode({ task, variant: 'dm-chen', trial: 1, agent, gym: new GymClient(gone) });
  t.equal(down.result.outcome, 'infra_error');
  t.match(down.result.infraError, /^gym session not created: fetch failed/);
  t.ok(down.result.durationMs >= 0 && down.result.startedAt, 'timed like any episode');
  const s = summarize([result, down.result]);
  t.same([s.episodes, s.infraErrors], [0, 2]);
});

t.test('a custom agent module: the example (a factory of the settings) loads and runs like any agent', async (t) => {
  const agent = await loadAgentModule(join(projectRoot, 'harness/agents/example-agent.ts'), { provider: 'custom', model: 'mine', maxTurns: 1, toolOutputLimit: 1000, strict: false, retries: 0, requestTimeoutMs: 1000 });
  t.equal(agent.name, 'example:mine');
  const run = await runBenchmark({ tasks: [task], agent, gym, trials: 1, concurrency: 1 });
  t.ok(run.episodes.every((e) => e.outcome !== 'infra_error' && e.log.length === 1 && e.log[0].path === 'Observation'), 'it searched once, over HTTP');
  t.ok(run.episodes.every((e) => typeof e.answer === 'string' && (e.answer as string).startsWith('Latest results')));
  await t.rejects(loadAgentModule(join(projectRoot, 'package.json'), {} as never), /export an Agent|did not load/);
});

/** `ehr-gym run` as a user runs it, stderr a pipe. */
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/ehr-gym.ts', 'run', '--patients', '0', '--tasks', 'endocrinology/a1c-glycemic-control', ...args], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

t.test('ehr-gym run: exit code follows infrastructure errors; --allow-errors; a .js agent module', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ehr-gym-run-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const down = await fakeModel(t, [() => ({ status: 500, body: { error: { message: 'down' } } })]);
  const model = ['--agent', 'openai', '--base-url', `${down.url}/v1`, '--api-key', 'k', '--model', 'm', '--retries', '0'];

  const failed = await cli([...model, '--out', join(dir, 'a')]);
  t.equal(failed.code, INFRA_ERROR_EXIT_CODE, failed.stderr);
  t.match(failed.stdout, /: 0 scored, \d+ infrastructure error\(s\) excluded from the rates/);
  t.match(failed.stdout, /infrastructure errors \(not scored\)\n\s+endocrinology\/a1c-glycemic-control \S+ t1: model API failed after 0 retries: 500/);
  t.match(failed.stderr, /^\[1\/\d+\] endocrinology\/a1c-glycemic-control \S+ t1: INFRA ERROR/m, 'plain progress lines on a pipe');
  t.match(failed.stderr, /--allow-errors to accept them/);
  const summary = JSON.parse(readFileSync(join(dir, 'a', 'summary.json'), 'utf8'));
  t.equal(summary.summary.infraErrors, summary.episodes.length);
  t.notOk(JSON.stringify(summary.settings).includes('"apiKey"'), 'the key is not in the settings');

  const allowed = await cli([...model, '--allow-errors']);
  t.equal(allowed.code, 0, allowed.stderr);

  const agentFile = join(dir, 'agent.mjs');
  writeFileSync(agentFile, `export const agent = {
  name: 'js-module',
  async run(ctx) {
    const res = await fetch(ctx.session.fhirBaseUrl + '/Observation?patient=' + ctx.patient + '&code=http://loinc.org|4548-4&_sort=-date&_count=1');
    const value = (await res.json()).entry[0].resource.valueQuantity.value;
    await ctx.gym.submit(ctx.session.id, JSON.stringify({ hba1c: value, atGoal: value < 7 }));
    return { transcript: [{ value }] };
  },
};
`);
  const custom = await cli(['--agent', agentFile, '--price', '1,2']);
  t.equal(custom.code, 0, custom.stderr);
  t.match(custom.stdout, /agent js-module/);
  t.match(custom.stdout, /: (\d+) scored, 0 infrastructure error\(s\)/, 'scored like any agent (a naive one: some variants are messier)');
  t.match(custom.stdout, /by task\n\s+task\s+episodes/);

  const bad = await cli(['--agent', './nowhere.ts']);
  t.equal(bad.code, 1);
  t.match(bad.stderr, /^error: --agent \.\/nowhere\.ts: the module did not load/m);
  t.notMatch(bad.stderr, /\n\s+at /, 'no stack trace');
  const price = await cli(['--agent', 'null', '--price', 'cheap']);
  t.equal(price.code, 1);
  t.match(price.stderr, /--price.*expected IN,OUT/);
});
