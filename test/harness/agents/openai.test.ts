// The OpenAI-compatible adapter against a small fake chat-completions server (no real model): it must send the gym
// tools, run the model's tool calls in the session (audited by the server), retry a 503, and stop at finish.
import t, { type Test } from 'tap';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openAiAgent } from '../../../harness/agents/openai.ts';
import { runEpisode } from '../../../harness/episode.ts';
import { GymClient } from '../../../harness/gym-client.ts';
import { startBenchServer } from '../../../harness/server.ts';
import { loadTask } from '../../../harness/task-loader.ts';
import { FIXTURE_TASKS } from '../../fixtures/fixture-tasks.ts';

interface Request { model: string; messages: { role: string; content: string | null; tool_calls?: unknown[] }[]; tools: { function: { name: string } }[] }

async function body(req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Request;
}

/** A scripted model: replies in order; the first request gets a 503 to exercise the retry. */
async function fakeLlm(t: Test, script: ((req: Request) => unknown)[]) {
  const seen: Request[] = [];
  let calls = 0;
  const server = createServer(async (req, res) => {
    const request = await body(req);
    calls++;
    if (calls === 1) {
      res.writeHead(503).end('overloaded');
      return;
    }
    seen.push(request);
    const reply = script[Math.min(seen.length - 1, script.length - 1)](request);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: reply }], usage: { prompt_tokens: 100, completion_tokens: 10 } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

const call = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });

t.test('tool calls run in the session and are graded like any agent', async (t) => {
  const server = await startBenchServer({ patients: 0, tasksDir: FIXTURE_TASKS });
  t.teardown(() => server.close());
  const gym = new GymClient(server.url);
  const task = await loadTask('endocrinology/a1c-glycemic-control', FIXTURE_TASKS);
  const llm = await fakeLlm(t, [
    () => ({ role: 'assistant', content: null, tool_calls: [call('c1', 'fhir_search', { resourceType: 'Observation', params: { patient: 'dm-haddad', code: 'http://loinc.org|4548-4' } })] }),
    (req) => {
      // The tool result is what the server returned: both A1c results, the latest 6.6.
      const last = req.messages[req.messages.length - 1];
      const found = last.role === 'tool' && (last.content ?? '').includes('6.6') && (last.content ?? '').includes('7.8');
      return { role: 'assistant', content: null, tool_calls: [call('c2', 'finish', { answer: found ? '{"hba1c": 6.6, "atGoal": true}' : 'no data' })] };
    },
  ]);
  const agent = openAiAgent({ baseUrl: llm.url, model: 'fake-1', maxTurns: 5, retries: 2, retryDelayMs: 1, timeoutMs: 10_000 });
  const { result } = await runEpisode({ task, variant: 'dm-haddad', trial: 1, agent, gym });
  t.equal(result.error, undefined);
  t.equal(llm.seen[0].model, 'fake-1');
  const names = llm.seen[0].tools.map((x) => x.function.name);
  for (const name of ['fhir_search', 'fhir_read', 'fhir_create', 'fhir_update', 'fhir_patch', 'fhir_delete', 'finish']) t.ok(names.includes(name), `tool ${name} offered`);
  t.equal(llm.seen[0].messages[1].content, task.spec.instruction.replace('{patient}', 'dm-haddad'));
  t.equal(result.log.length, 1, 'the one search is in the audit log');
  t.equal(result.log[0].tool, 'fhir_search');
  t.same(result.tokens, { prompt: 200, completion: 20 });
  t.ok(result.pass, JSON.stringify(result.verdicts.filter((v) => !v.pass)));
});

t.test('a reply without tool calls ends the episode with its text as the answer; the turn budget is enforced', async (t) => {
  const server = await startBenchServer({ patients: 0, tasksDir: FIXTURE_TASKS });
  t.teardown(() => server.close());
  const gym = new GymClient(server.url);
  const task = await loadTask('endocrinology/a1c-glycemic-control', FIXTURE_TASKS);
  const talker = await fakeLlm(t, [() => ({ role: 'assistant', content: 'A1c 8.4%, not at goal' })]);
  const { result } = await runEpisode({ task, variant: 'dm-chen', trial: 1, agent: openAiAgent({ baseUrl: talker.url, model: 'm', maxTurns: 3, retries: 1, retryDelayMs: 1, timeoutMs: 10_000 }), gym });
  t.equal(result.answer, 'A1c 8.4%, not at goal');
  t.notOk(result.pass, 'never fetched the result');
  t.equal(result.verdicts.find((v) => v.id === 'retrieved_latest_a1c')?.failure, 'missing_retrieval');
  t.ok(result.verdicts.find((v) => v.id === 'latest_a1c_value')?.pass, 'the stated value is right');

  const looper = await fakeLlm(t, [() => ({ role: 'assistant', content: null, tool_calls: [call('x', 'fhir_read', { resourceType: 'Patient', id: 'dm-chen' })] })]);
  const loop = await runEpisode({ task, variant: 'dm-chen', trial: 1, agent: openAiAgent({ baseUrl: looper.url, model: 'm', maxTurns: 3, retries: 1, retryDelayMs: 1, timeoutMs: 10_000 }), gym });
  t.match(loop.result.error, /no finish within 3 turns/);
  t.equal(loop.result.log.length, 3);
});

t.test('a 4xx from the model is not retried and is reported', async (t) => {
  const server = await startBenchServer({ patients: 0, tasksDir: FIXTURE_TASKS });
  t.teardown(() => server.close());
  const http = createServer((_req, res) => res.writeHead(401).end('bad key'));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  t.teardown(() => http.close());
  const task = await loadTask('endocrinology/a1c-glycemic-control', FIXTURE_TASKS);
  const agent = openAiAgent({ baseUrl: `http://127.0.0.1:${(http.address() as AddressInfo).port}/v1`, model: 'm', maxTurns: 3, retries: 3, retryDelayMs: 1, timeoutMs: 10_000 });
  const { result } = await runEpisode({ task, variant: 'dm-chen', trial: 1, agent, gym: new GymClient(server.url) });
  t.match(result.error, /401/);
  t.equal(result.verdicts.find((v) => v.id === 'latest_a1c_value')?.failure, 'agent_error');
});
