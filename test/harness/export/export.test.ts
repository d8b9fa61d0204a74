// `ehr-gym export` run as a user runs it (the CLI in a child process) over the fixture runs; every trajectory and row
// validated with ajv against the schemas written from the specifications (harness/export/schemas/), and the figures
// checked against the episode records: per-step tokens are the model calls', rewards the checkpoint scores, tool call
// ids match the observation results that answer them, infrastructure errors stay out of the training rows.
import t from 'tap';
import { Ajv } from 'ajv';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ATIF_SCHEMA_VERSION, toAtif } from '../../../harness/export/formats.ts';
import { loadRun } from '../../../harness/report/data.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const fixtures = join(root, 'test/fixtures/report-runs');
const schema = (name: string) => JSON.parse(readFileSync(join(root, 'harness/export/schemas', name), 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
const validateAtif = ajv.compile(schema('atif-v1.4.schema.json'));
const validateRow = ajv.compile(schema('results-row.schema.json'));
const cli = (...args: string[]) => run(process.execPath, ['--import', 'tsx', join(root, 'bin/ehr-gym.ts'), ...args], { cwd: root, maxBuffer: 64 << 20 });
const episodesA = loadRun(join(fixtures, 'run-a')).episodes;

t.test('ATIF: every episode of both runs, valid against the schema, with the records\' figures', async (t) => {
  const out = t.testdir({});
  const { stderr } = await cli('export', join(fixtures, 'run-a'), '--format', 'atif', '--out', join(out, 'a'));
  t.match(stderr, /wrote 8 ATIF trajectories/);
  await cli('export', join(fixtures, 'run-b'), '--format', 'atif', '--out', join(out, 'b'), '--tasks-dir', join(root, 'test/fixtures/tasks'));
  const files = [...readdirSync(join(out, 'a')).map((f) => join(out, 'a', f)), ...readdirSync(join(out, 'b')).map((f) => join(out, 'b', f))];
  t.equal(files.length, 12, 'a trajectory per episode, infrastructure errors included (they are part of the record)');
  for (const file of files) {
    const trajectory = JSON.parse(readFileSync(file, 'utf8'));
    t.ok(validateAtif(trajectory), `${file}: ${ajv.errorsText(validateAtif.errors)}`);
    t.equal(trajectory.schema_version, ATIF_SCHEMA_VERSION);
    const ids = trajectory.steps.map((s: any) => s.step_id);
    t.same(ids, ids.map((_: unknown, i: number) => i + 1), 'step ids 1, 2, 3, ...');
    // Every observation result answers a tool call of its own step.
    for (const s of trajectory.steps) {
      const callIds = (s.tool_calls ?? []).map((c: any) => c.tool_call_id);
      for (const r of s.observation?.results ?? []) t.ok(callIds.includes(r.source_call_id), `step ${s.step_id}: result for ${r.source_call_id}`);
    }
  }

  const okafor = JSON.parse(readFileSync(join(out, 'a', 'nephrology__hyperkalemia-ace-inhibitor__hk-okafor__t2.json'), 'utf8'));
  const record = episodesA.find((e) => e.variant === 'hk-okafor' && e.trial === 2)!;
  t.match(okafor.agent, { name: 'openai:fixture-model', model_name: 'fixture-model' });
  t.equal(okafor.session_id, record.session);
  t.same(okafor.steps.map((s: any) => s.source), ['system', 'user', 'agent', 'agent', 'agent']);
  const agentSteps = okafor.steps.filter((s: any) => s.source === 'agent');
  t.same(agentSteps.map((s: any) => s.metrics.prompt_tokens), record.turns!.map((x) => x.usage.prompt), 'per-step prompt tokens from the model calls');
  t.same(agentSteps.map((s: any) => s.tool_calls.map((c: any) => c.function_name)), [['fhir_search', 'fhir_search'], ['fhir_patch'], ['finish']]);
  t.same(agentSteps[1].tool_calls[0].arguments.patch[0], { op: 'replace', path: '/status', value: 'stopped' }, 'arguments as an object');
  t.equal(okafor.final_metrics.total_prompt_tokens, record.tokens!.prompt);
  t.equal(okafor.final_metrics.total_completion_tokens, record.tokens!.completion);
  t.equal(okafor.final_metrics.total_cost_usd, record.cost);
  const stepCost = agentSteps.reduce((sum: number, s: any) => sum + s.metrics.cost_usd, 0);
  t.equal(Math.round(stepCost * 1e9), Math.round(record.cost! * 1e9), 'step costs add up to the episode\'s');
  t.equal(okafor.final_metrics.extra.reward, 0.8);
  t.equal(okafor.final_metrics.extra.checkpoint_rewards.repeat_potassium_ordered, 0);

  const infra = JSON.parse(readFileSync(join(out, 'a', 'endocrinology__a1c-glycemic-control__dm-chen__t1.json'), 'utf8'));
  t.equal(infra.extra.outcome, 'infra_error');
  t.match(infra.extra.infra_error, /503/);

  const oracle = JSON.parse(readFileSync(join(out, 'b', 'nephrology__hyperkalemia-ace-inhibitor__hk-okafor__t1.json'), 'utf8'));
  t.match(oracle.notes, /no model conversation/i);
  t.match(oracle.steps[0], { step_id: 1, source: 'user', message: /^E-consult re Patient\/hk-okafor: potassium came back high/ }, 'the task\'s instruction first');
  t.same(oracle.steps.slice(1).map((s: any) => s.tool_calls[0].arguments.method), ['GET', 'GET', 'GET', 'GET', 'PATCH', 'POST']);
});

t.test('the ATIF schema has teeth', async (t) => {
  const good = toAtif(episodesA[4], {});
  t.ok(validateAtif(good));
  const { schema_version: _v, ...noVersion } = good;
  t.notOk(validateAtif(noVersion), 'schema_version is required');
  const steps = good.steps as any[];
  t.notOk(validateAtif({ ...good, steps: [{ ...steps[0], source: 'tool' }] }), 'source is system, user or agent');
  t.notOk(validateAtif({ ...good, steps: [{ ...steps[0], tool_calls: [{ tool_call_id: 'x', function_name: 'f', arguments: {} }] }] }), 'tool calls only on agent steps');
  t.notOk(validateAtif({ ...good, steps: [{ ...steps[2], tool_calls: [{ tool_call_id: 'x', function_name: 'f', arguments: '{}' }] }] }), 'arguments are an object');
});

t.test('JSONL: scored episodes as rows, reward = checkpoint score, valid against the schema', async (t) => {
  const { stdout } = await cli('export', join(fixtures, 'run-a'), '--format', 'jsonl', '--out', '-');
  const rows = stdout.trim().split('\n').map((line) => JSON.parse(line));
  t.equal(rows.length, 6, 'the 2 infrastructure-error episodes are left out');
  for (const row of rows) t.ok(validateRow(row), ajv.errorsText(validateRow.errors));
  t.same(rows.map((r) => r.reward).sort(), [0.4, 0.4, 0.8, 0.8, 1, 1]);
  t.same(rows.map((r) => r.pass), rows.map((r) => r.reward === 1));
  const row = rows.find((r) => r.metadata.id === 'nephrology__hyperkalemia-ace-inhibitor__hk-ramos__t2');
  t.same(row.checkpoint_rewards, {
    reviewed_potassium: 1, reviewed_ace_order: 1, stated_potassium: 1, ace_inhibitor_stopped: 1,
    repeat_potassium_ordered: 0, no_potassium_raising_substitute: 1, writes_scoped_and_informed: 1,
  });
  t.same(row.prompt.map((m: any) => m.role), ['system', 'user'], 'the prompt: what the model had before its first reply');
  t.match(row.prompt[1].content, /Patient\/hk-ramos/);
  t.same(row.completion.map((m: any) => m.role), ['assistant', 'tool', 'tool', 'assistant', 'tool', 'assistant', 'tool']);
  t.equal(JSON.parse(row.completion[3].tool_calls[0].function.arguments).id, 'hk-ramos-lisinopril', 'arguments as JSON text, as the API sends them');
  t.match(row.metadata, { task: 'nephrology/hyperkalemia-ace-inhibitor', variant: 'hk-ramos', trial: 2, model: 'fixture-model', failed_checkpoints: [{ id: 'repeat_potassium_ordered', failure: 'wrong_action' }] });
  t.notOk(validateRow({ ...row, reward: 1.5 }), 'a reward outside [0, 1] is refused');
});

t.test('usage errors are one line', async (t) => {
  const bad = await cli('export', fixtures, '--format', 'jsonl').then(() => undefined, (err) => err);
  t.equal(bad.code, 1);
  t.match(bad.stderr, /is not a results directory/);
  t.notMatch(bad.stderr, /\n\s+at /, 'no stack trace');
  const format = await cli('export', join(fixtures, 'run-a'), '--format', 'csv').then(() => undefined, (err) => err);
  t.match(format.stderr, /Allowed choices are atif, jsonl/);
});
