// The OpenAI Chat Completions agent against a scripted fake API on a real local socket (test/harness/agents/fake-model.ts):
// tool calls run in the session (audited by the server); 429 with Retry-After and 5xx are retried and recorded;
// persistent failures are infrastructure errors, not agent failures; malformed arguments and unknown tools go back to
// the model; a final reply cut at `length` is flagged and not submitted; token, turn and time budgets stop an episode;
// long tool results are cut; --strict schemas are offered and their JSON-text fields decoded.
import t from 'tap';
import { openAiAgent, openAiOptionsFromEnv, type OpenAiAgentOptions } from '../../../harness/agents/openai.ts';
import { runEpisode } from '../../../harness/episode.ts';
import { GymClient } from '../../../harness/gym-client.ts';
import { startBenchServer } from '../../../harness/server.ts';
import { loadTask } from '../../../harness/task-loader.ts';
import { FIXTURE_TASKS } from '../../fixtures/fixture-tasks.ts';
import { completion, fakeModel, toolCall } from './fake-model.ts';

const server = await startBenchServer({ patients: 0, tasksDir: FIXTURE_TASKS });
t.teardown(() => server.close());
const gym = new GymClient(server.url);
const task = await loadTask('endocrinology/a1c-glycemic-control', FIXTURE_TASKS);

/** Fast retries with pinned jitter: backoff before retry n is 0.5 * 10 * 2^(n-1) ms. */
const agentFor = (url: string, extra: Partial<OpenAiAgentOptions> = {}) =>
  openAiAgent(openAiOptionsFromEnv({ baseUrl: `${url}/v1`, apiKey: 'sk-test', model: 'fake-1', maxTurns: 5, retries: 2, retryDelayMs: 10, timeoutMs: 10_000, random: () => 0.5, ...extra }));

const searchA1c = (patient: string) => toolCall('c1', 'fhir_search', { resourceType: 'Observation', params: { patient, code: 'http://loinc.org|4548-4' } });

t.test('a whole episode: tools offered, calls run and audited, 429 (Retry-After) and 500 retried and recorded, graded', async (t) => {
  const llm = await fakeModel(t, [
    () => ({ status: 429, headers: { 'retry-after-ms': '25' }, body: { error: { message: 'Rate limit reached', type: 'requests' } } }),
    () => ({ status: 500, body: { error: { message: 'internal error' } } }),
    () => completion({ tool_calls: [searchA1c('dm-haddad')] }),
    (req) => {
      const last = req.body.messages.at(-1);
      const found = last.role === 'tool' && last.content.includes('6.6') && last.content.includes('7.8');
      return completion({ tool_calls: [toolCall('c2', 'finish', { answer: found ? '{"hba1c": 6.6, "atGoal": true}' : 'no data' })] });
    },
  ]);
  const { result } = await runEpisode({ task, variant: 'dm-haddad', trial: 1, agent: agentFor(llm.url, { temperature: 0.2, maxTokens: 512 }), gym, price: { inputPerMillion: 2, outputPerMillion: 8 } });
  t.equal(result.outcome, 'passed', JSON.stringify(result.verdicts.filter((v) => !v.pass)));
  t.equal(result.error, undefined);
  const first = llm.seen[0];
  t.equal(first.path, '/v1/chat/completions');
  t.equal(first.headers.authorization, 'Bearer sk-test');
  t.equal(first.body.model, 'fake-1');
  t.equal(first.body.temperature, 0.2);
  t.equal(first.body.max_completion_tokens, 512);
  t.equal(first.body.messages[1].content, task.spec.instruction.replace('{patient}', 'dm-haddad'));
  t.same(result.toolsOffered, first.body.tools, 'the exact tool definitions sent are recorded');
  t.ok(first.body.tools.some((x: any) => x.function.name === 'finish' && x.function.strict === undefined), 'not strict unless asked');
  t.equal(result.log.length, 1, 'the one search is in the audit log');
  t.equal(result.log[0].tool, 'fhir_search');
  t.same(result.tokens, { prompt: 200, completion: 20 });
  t.equal(result.cost, (200 * 2 + 20 * 8) / 1e6);
  t.equal(result.turns?.length, 2);
  t.same(result.turns?.map((x) => x.finishReason), ['tool_calls', 'tool_calls']);
  t.same(result.turns?.[0].retries, [
    { attempt: 1, status: 429, error: '429 {"error":{"message":"Rate limit reached","type":"requests"}}', waitMs: 25, retryAfterMs: 25 },
    { attempt: 2, status: 500, error: '500 {"error":{"message":"internal error"}}', waitMs: 10 },
  ], 'Retry-After honoured; without one, backoff with jitter');
  t.same(result.turns?.[1].retries, []);
  t.equal(result.retries, 2);
  t.ok(result.turns!.every((x) => x.latencyMs >= 0 && x.usage.prompt === 100));
  t.match(result.settings, { provider: 'openai', model: 'fake-1', temperature: 0.2, maxTokens: 512, maxTurns: 5, toolOutputLimit: 64_000, strict: false, retries: 2 });
  t.notOk(JSON.stringify(result).includes('sk-test'), 'the API key is never recorded');
  t.ok(Date.parse(result.endedAt) >= Date.parse(result.startedAt) && result.durationMs >= 0);
});

t.test('Retry-After in seconds (and fractions of one) is honoured', async (t) => {
  const llm = await fakeModel(t, [
    () => ({ status: 429, headers: { 'retry-after': '0.03' }, body: { error: { message: 'slow down' } } }),
    () => completion({ content: 'A1c 6.6%, at goal' }),
  ]);
  const { result } = await runEpisode({ task, variant: 'dm-haddad', trial: 1, agent: agentFor(llm.url), gym });
  t.same(result.turns?.[0].retries.map((r) => [r.status, r.retryAfterMs, r.waitMs]), [[429, 30, 30]]);
  t.equal(result.answer, 'A1c 6.6%, at goal', 'a text reply is the answer');
});

t.test('the model API failing after its retries, or refusing the request, is an infrastructure error', async (t) => {
  const failing = await fakeModel(t, [() => ({ status: 500, body: 'upstream exploded' })]);
  const { result } = await runEpisode({ task, variant: 'dm-chen', trial: 1, agent: agentFor(failing.url), gym });
  t.equal(result.outcome, 'infra_error');
  t.match(result.infraError, /model API failed after 2 retries: 500 upstream exploded/);
  t.equal(result.error, undefined, 'not an agent error');
  t.equal(failing.seen.length, 3, 'first attempt and two retries');
  t.same(result.turns?.[0].retries.map((r) => [r.attempt, r.status, r.waitMs]), [[1, 500, 5], [2, 500, 10]], 'exponential backoff, jitter pinned at 0.5');
  t.equal(result.turns?.[0].finishReason, 'api_error');
  t.ok(result.verdicts.filter((v) => !v.pass).every((v) => v.failure === 'infra_error'), 'its failed checkpoints are not charged to the agent');

  const refusing = await fakeModel(t, [() => ({ status: 401, body: { error: { message: 'Incorrect API key provided' } } })]);
  const refused = await runEpisode({ task, variant: 'dm-chen', trial: 1, agent: agentFor(refusing.url), gym });
  t.equal(refused.result.outcome, 'infra_error');
  t.match(refused.result.infraError, /model API 401/);
  t.equal(refusing.seen.length, 1, 'a 401 is not retried');
});

t.test('malformed tool arguments and unknown tools go back to the model as tool errors; nothing runs', async (t) => {
  const llm = await fakeModel(t, [
    () => completion({ tool_calls: [
      toolCall('bad-json', 'fhir_read', '{"resourceType": "Patient", "id": '),
      toolCall('not-object', 'fhir_read', '["Patient", "dm-chen"]'),
      toolCall('unknown', 'order_pizza', { size: 'large' }),
    ] }),
    () => completion({ tool_calls: [toolCall('f', 'finish', { answer: 'gave up' })] }),
  ]);
  const { result } = await runEpisode({ task, variant: 'dm-chen', trial: 1, agent: agentFor(llm.url), gym });
  const replies = llm.seen[1].body.messages.filter((m: any) => m.role === 'tool');
  t.same(replies.map((m: any) => m.tool_call_id), ['bad-json', 'not-object', 'unknown'], 'one reply per call, in order');
  t.match(replies[0].content, /^Tool call failed: the arguments are not valid JSON/);
  t.match(replies[1].content, /^Tool call failed: the arguments must be a JSON object/);
  t.match(replies[2].content, /Unknown tool 'order_pizza'/);
  t.equal(result.log.length, 0, 'none of them reached the chart');
  t.equal(result.outcome, 'failed');
  t.equal(result.answer, 'gave up');
});

t.test('a final reply cut at the length limit is flagged and not graded as the answer', async (t) => {
  const llm = await fakeModel(t, [() => completion({ content: '{"hba1c": 8.4, "atGo' }, 'length')]);
  const { result } = await runEpisode({ task, variant: 'dm-chen', trial: 1, agent: agentFor(llm.url, { maxTokens: 8 }), gym });
  t.equal(result.truncatedFinalReply, true);
  t.match(result.error, /final reply cut at the output token limit \(length\); not submitted/);
  t.equal(result.answer, undefined, 'nothing was submitted');
  t.equal(result.outcome, 'failed', 'an agent failure, not an infrastructure error');
  t.same(result.turns?.map((x) => [x.finishReason, x.truncated]), [['length', true]]);
});

t.test('budgets: episode tokens, turns and time stop the episode as the agent\'s failure', async (t) => {
  const reader = () => completion({ tool_calls: [toolCall('r', 'fhir_read', { resourceType: 'Patient', id: 'dm-chen' })] }, 'tool_calls', { prompt_tokens: 100, completion_tokens: 10 });
  const tokens = await fakeModel(t, [reader]);
  const byTokens = await runEpisode({ task, variant: 'dm-chen', trial: 1, agent: agentFor(tokens.url, { maxEpisodeTokens: 150 }), gym });
  t.match(byTokens.result.error, /episode token budget of 150 exhausted \(220 used\)/);
  t.equal(tokens.seen.length, 2, 'no call after the budget was spent');
  t.equal(byTokens.result.outcome, 'failed');

  const turns = await fakeModel(t, [reader]);
  const byTurns = await runEpisode({ task, variant: 'dm-chen', trial: 1, agent: agentFor(turns.url, { maxTurns: 3 }), gym });
  t.match(byTurns.result.error, /no finish within 3 turns/);
  t.equal(byTurns.result.log.length, 3);

  // The fake answers only after the episode's deadline (its delay is never asserted on).
  const slow = await fakeModel(t, [() => ({ ...reader(), delayMs: 2000 })]);
  const byTime = await runEpisode({ task, variant: 'dm-chen', trial: 1, agent: agentFor(slow.url, { episodeTimeLimitMs: 50 }), gym });
  t.match(byTime.result.error, /episode time limit of 50 ms reached/);
  t.equal(byTime.result.outcome, 'failed', 'a budget, not an infrastructure error');
  t.equal(byTime.result.settings?.episodeTimeLimitMs, 50);
});

t.test('tool results above --tool-output-limit are cut with a note', async (t) => {
  const llm = await fakeModel(t, [
    () => completion({ tool_calls: [searchA1c('dm-haddad')] }),
    () => completion({ tool_calls: [toolCall('f', 'finish', { answer: 'x' })] }),
  ]);
  await runEpisode({ task, variant: 'dm-haddad', trial: 1, agent: agentFor(llm.url, { toolOutputLimit: 120 }), gym });
  const reply = llm.seen[1].body.messages.at(-1);
  t.equal(reply.role, 'tool');
  t.match(reply.content, /^.{120}\.\.\. \[truncated: \d+ characters, showing the first 120\]$/s);
});

t.test('--strict: strict schemas offered; JSON-text resources and null optionals decoded before the call', async (t) => {
  const resource = { resourceType: 'Observation', status: 'final', code: { text: 'note' }, subject: { reference: 'Patient/dm-chen' } };
  const llm = await fakeModel(t, [
    () => completion({ tool_calls: [
      toolCall('s', 'fhir_search', { resourceType: 'Observation', params: JSON.stringify({ patient: 'dm-chen', code: 'http://loinc.org|4548-4' }) }),
      toolCall('h', 'fhir_history', { resourceType: 'Patient', id: 'dm-chen', params: null }),
      toolCall('c', 'fhir_create', { resourceType: 'Observation', resource: JSON.stringify(resource) }),
    ] }),
    () => completion({ tool_calls: [toolCall('f', 'finish', { answer: 'done' })] }),
  ]);
  const { result } = await runEpisode({ task, variant: 'dm-chen', trial: 1, agent: agentFor(llm.url, { strict: true }), gym });
  for (const tool of llm.seen[0].body.tools) {
    t.equal(tool.function.strict, true, `${tool.function.name} strict`);
    t.same(tool.function.parameters.required, Object.keys(tool.function.parameters.properties), `${tool.function.name}: every property required`);
    t.equal(tool.function.parameters.additionalProperties, false);
  }
  t.same(result.log.map((e) => [e.tool, e.method, e.status]), [['fhir_search', 'GET', 200], ['fhir_history', 'GET', 200], ['fhir_create', 'POST', 201]]);
  t.same(result.log[0].query, [['patient', 'dm-chen'], ['code', 'http://loinc.org|4548-4']], 'the params text became search parameters');
  t.equal(result.settings?.strict, true);
});
