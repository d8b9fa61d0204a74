// The Anthropic Messages agent against a fake that follows the real wire format (POST /v1/messages, x-api-key and
// anthropic-version headers, content blocks, tool_use -> tool_result, stop_reason, usage, error bodies, 529 overloaded):
// a whole graded episode, Retry-After, persistent failures as infrastructure errors, malformed and unknown tool uses,
// a final reply cut at max_tokens, strict tools.
import t from 'tap';
import { anthropicAgent, anthropicOptionsFromEnv, ANTHROPIC_VERSION, type AnthropicAgentOptions } from '../../../harness/agents/anthropic.ts';
import { runEpisode } from '../../../harness/episode.ts';
import { GymClient } from '../../../harness/gym-client.ts';
import { startBenchServer } from '../../../harness/server.ts';
import { loadTask } from '../../../harness/task-loader.ts';
import { FIXTURE_TASKS } from '../../fixtures/fixture-tasks.ts';
import { anthropicError, fakeModel, message, toolUse } from './fake-model.ts';

const server = await startBenchServer({ patients: 0, tasksDir: FIXTURE_TASKS });
t.teardown(() => server.close());
const gym = new GymClient(server.url);
const task = await loadTask('endocrinology/a1c-glycemic-control', FIXTURE_TASKS);

const agentFor = (url: string, extra: Partial<AnthropicAgentOptions> = {}) =>
  anthropicAgent(anthropicOptionsFromEnv({ baseUrl: url, apiKey: 'sk-ant-test', model: 'claude-test', maxTurns: 5, retries: 2, retryDelayMs: 10, timeoutMs: 10_000, random: () => 0.5, ...extra }));

t.test('a whole episode over the Messages API: headers, blocks, tool_result, retries (429 Retry-After, 529), usage, graded', async (t) => {
  const llm = await fakeModel(t, [
    () => anthropicError(429, 'rate_limit_error', { 'retry-after': '0.02' }),
    () => anthropicError(529, 'overloaded_error'),
    () => message([
      { type: 'text', text: 'Let me look up the A1c results.' },
      toolUse('toolu_01', 'fhir_search', { resourceType: 'Observation', params: { patient: 'dm-haddad', code: 'http://loinc.org|4548-4' } }),
    ], 'tool_use'),
    (req) => {
      const results = req.body.messages.at(-1);
      const block = results.content[0];
      const found = results.role === 'user' && block.type === 'tool_result' && block.tool_use_id === 'toolu_01' && block.content.includes('6.6');
      return message([toolUse('toolu_02', 'finish', { answer: found ? '{"hba1c": 6.6, "atGoal": true}' : 'no data' })], 'tool_use');
    },
  ]);
  const { result } = await runEpisode({ task, variant: 'dm-haddad', trial: 1, agent: agentFor(llm.url, { temperature: 0 }), gym, price: { inputPerMillion: 3, outputPerMillion: 15 } });
  t.equal(result.outcome, 'passed', JSON.stringify(result.verdicts.filter((v) => !v.pass)));
  const first = llm.seen[0];
  t.equal(first.method, 'POST');
  t.equal(first.path, '/v1/messages');
  t.equal(first.headers['x-api-key'], 'sk-ant-test');
  t.equal(first.headers['anthropic-version'], ANTHROPIC_VERSION);
  t.equal(first.headers.authorization, undefined, 'Anthropic takes x-api-key, not a bearer token');
  t.equal(first.body.model, 'claude-test');
  t.equal(first.body.max_tokens, 4096, 'max_tokens is required: the default is sent');
  t.equal(first.body.temperature, 0);
  t.match(first.body.system, /physician agent/, 'the system prompt is the top-level system field');
  t.same(first.body.messages, [{ role: 'user', content: task.spec.instruction.replace('{patient}', 'dm-haddad') }]);
  const search = first.body.tools.find((x: any) => x.name === 'fhir_search');
  t.ok(search.input_schema && search.description, 'Anthropic tool shape: name, description, input_schema');
  t.same(result.toolsOffered, first.body.tools);
  const second = llm.seen[3].body.messages;
  t.same(second[1].content.map((b: any) => b.type), ['text', 'tool_use'], 'the assistant turn is sent back as its content blocks');
  t.equal(second[2].role, 'user');
  t.equal(second[2].content[0].is_error, undefined, 'a successful result carries no is_error');
  t.same(result.tokens, { prompt: 400, completion: 40 });
  t.equal(result.cost, (400 * 3 + 40 * 15) / 1e6);
  t.same(result.turns?.map((x) => x.finishReason), ['tool_use', 'tool_use']);
  t.same(result.turns?.[0].retries.map((r) => [r.status, r.waitMs, r.retryAfterMs]), [[429, 20, 20], [529, 10, undefined]]);
  t.match(result.turns?.[0].retries[0].error, /rate_limit_error/);
  t.match(result.settings, { provider: 'anthropic', model: 'claude-test', maxTokens: 4096 });
  t.notOk(JSON.stringify(result).includes('sk-ant-test'), 'the API key is never recorded');
});

t.test('overloaded past the retries: an infrastructure error, counted apart', async (t) => {
  const llm = await fakeModel(t, [() => anthropicError(529, 'overloaded_error')]);
  const { result } = await runEpisode({ task, variant: 'dm-chen', trial: 1, agent: agentFor(llm.url), gym });
  t.equal(result.outcome, 'infra_error');
  t.match(result.infraError, /failed after 2 retries: 529/);
  t.equal(llm.seen.length, 3);
  const bad = await fakeModel(t, [() => anthropicError(400, 'invalid_request_error')]);
  const refused = await runEpisode({ task, variant: 'dm-chen', trial: 1, agent: agentFor(bad.url), gym });
  t.equal(refused.result.outcome, 'infra_error', 'a request the API refuses is not the agent\'s failure either');
  t.equal(bad.seen.length, 1, 'a 400 is not retried');
});

t.test('malformed and unknown tool uses come back as is_error tool_results', async (t) => {
  const llm = await fakeModel(t, [
    () => message([toolUse('toolu_a', 'fhir_read', 'resourceType=Patient'), toolUse('toolu_b', 'prescribe_everything', {})], 'tool_use'),
    () => message([{ type: 'text', text: 'I could not do it.' }], 'end_turn'),
  ]);
  const { result } = await runEpisode({ task, variant: 'dm-chen', trial: 1, agent: agentFor(llm.url), gym });
  const results = llm.seen[1].body.messages.at(-1).content;
  t.same(results.map((b: any) => [b.type, b.tool_use_id, b.is_error]), [['tool_result', 'toolu_a', true], ['tool_result', 'toolu_b', true]]);
  t.match(results[0].content, /Tool call failed: the arguments are not valid JSON/);
  t.match(results[1].content, /Unknown tool 'prescribe_everything'/);
  t.equal(result.log.length, 0);
  t.equal(result.answer, 'I could not do it.', 'end_turn text is the answer');
  t.same(result.turns?.map((x) => x.finishReason), ['tool_use', 'end_turn']);
});

t.test('a final reply stopped at max_tokens is flagged, not submitted', async (t) => {
  const llm = await fakeModel(t, [() => message([{ type: 'text', text: '{"hba1c": 8.' }], 'max_tokens')]);
  const { result } = await runEpisode({ task, variant: 'dm-chen', trial: 1, agent: agentFor(llm.url, { maxTokens: 5 }), gym });
  t.equal(llm.seen[0].body.max_tokens, 5);
  t.equal(result.truncatedFinalReply, true);
  t.match(result.error, /\(max_tokens\); not submitted/);
  t.equal(result.answer, undefined);
  t.equal(result.outcome, 'failed');
});

t.test('--strict: Anthropic strict tools, decoded before the call', async (t) => {
  const llm = await fakeModel(t, [
    () => message([toolUse('toolu_s', 'fhir_search', { resourceType: 'Observation', params: '{"patient": "dm-chen", "code": "http://loinc.org|4548-4"}' })], 'tool_use'),
    () => message([toolUse('toolu_f', 'finish', { answer: '{"hba1c": 8.4, "atGoal": false}' })], 'tool_use'),
  ]);
  const { result } = await runEpisode({ task, variant: 'dm-chen', trial: 1, agent: agentFor(llm.url, { strict: true }), gym });
  for (const tool of llm.seen[0].body.tools) {
    t.equal(tool.strict, true);
    t.equal(tool.input_schema.additionalProperties, false);
    t.same(tool.input_schema.required, Object.keys(tool.input_schema.properties));
  }
  t.same(result.log.map((e) => [e.tool, e.status, e.resourceIds.length]), [['fhir_search', 200, 3]], 'the params text became the search: dm-chen\'s three A1c results');
  t.equal(result.outcome, 'passed');
});

t.test('a 500 is retried; budgets (episode tokens, turns) stop the episode as the agent\'s failure', async (t) => {
  const read = () => message([toolUse('toolu_r', 'fhir_read', { resourceType: 'Patient', id: 'dm-chen' })], 'tool_use', { input_tokens: 100, output_tokens: 10 });
  const llm = await fakeModel(t, [() => anthropicError(500, 'api_error'), read]);
  const byTokens = await runEpisode({ task, variant: 'dm-chen', trial: 1, agent: agentFor(llm.url, { maxEpisodeTokens: 200 }), gym });
  t.same(byTokens.result.turns?.[0].retries.map((r) => [r.status, r.waitMs]), [[500, 5]]);
  t.match(byTokens.result.error, /episode token budget of 200 exhausted \(220 used\)/);
  t.equal(byTokens.result.outcome, 'failed');
  t.equal(llm.seen.length, 3, 'the failed attempt, then two turns');

  const looper = await fakeModel(t, [read]);
  const byTurns = await runEpisode({ task, variant: 'dm-chen', trial: 1, agent: agentFor(looper.url, { maxTurns: 2 }), gym });
  t.match(byTurns.result.error, /no finish within 2 turns/);
  t.equal(byTurns.result.log.length, 2);
});
