// The numbers and links the report shows, computed from the fixture runs (test/fixtures/report-runs, written by the
// real runner). Run A: 8 episodes, 2 of them infrastructure errors (the model API failing), 2 passes of the 6 scored.
// Each figure below is one a careless report gets wrong: pass@1 over every episode would be 2/8, pass^2 taken as
// pass@1 squared 1/9, the checkpoint score confused with the checkpoint pass rate 30/36.
import t from 'tap';
import { fileURLToPath } from 'node:url';
import { compareRuns, failureCauses, lineDiff, loadRun, reportData, ResultsDirError, stableJson, writeDiffs } from '../../../harness/report/data.ts';
import type { AuditEntry, ResourceChange } from '../../../contracts/gym-api.ts';
import { buildTrajectory } from '../../../harness/report/trajectory.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/report-runs/', import.meta.url));
const runA = loadRun(`${fixtures}run-a`);
const runB = loadRun(`${fixtures}run-b`);
const OKAFOR_T1 = 'nephrology__hyperkalemia-ace-inhibitor__hk-okafor__t1';

t.test('overview figures: infrastructure errors out of every rate, pass^k by tau-bench\'s formula', async (t) => {
  const s = runA.summary;
  t.equal(runA.episodes.length, 8);
  t.equal(s.infraErrors, 2);
  t.equal(s.episodes, 6, 'scored episodes');
  t.equal(s.pass1, 2 / 6, 'pass@1 over scored episodes, not 2/8');
  // Per task (n, c): a1c (2, 0), hyperkalemia (4, 2). pass^1 = mean(0, 2/4); pass^2 = mean(0, C(2,2)/C(4,2)) = 1/12.
  t.equal(s.passHatK['1'], 0.25, 'pass^1 averages tasks, so it differs from pass@1 here');
  t.equal(s.passHatK['2'], 1 / 12);
  t.equal(Math.round(s.checkpointScore * 1e6) / 1e6, Math.round((4.4 / 6) * 1e6) / 1e6, 'mean weighted score: (0.4+0.4+1+0.8+1+0.8)/6');
  t.equal(s.checkpointPassRate, 30 / 36);
  t.same(s.tokens, { prompt: 31_200, completion: 1520 }, 'tokens of every episode, infrastructure errors included');
  t.equal(Math.round(s.cost! * 1e6) / 1e6, 0.0932);
});

t.test('per-task table: variants, trials, most failed checkpoint', async (t) => {
  const view = reportData([`${fixtures}run-a`]).runs[0];
  t.same(view.tasks.map((r) => [r.task, r.variants, r.trials, r.episodes, r.passes, r.infraErrors, r.mostFailed]), [
    ['endocrinology/a1c-glycemic-control', 2, 2, 2, 0, 2, { id: 'latest_a1c_value', episodes: 2 }],
    ['nephrology/hyperkalemia-ace-inhibitor', 2, 2, 4, 2, 0, { id: 'repeat_potassium_ordered', episodes: 2 }],
  ]);
});

t.test('episode rows carry what the list filters on', async (t) => {
  const view = reportData([`${fixtures}run-a`]).runs[0];
  const byId = new Map(view.episodes.map((e) => [e.id, e]));
  t.same(byId.get('endocrinology__a1c-glycemic-control__dm-chen__t1')!.causes, ['infra_error']);
  t.same(byId.get('nephrology__hyperkalemia-ace-inhibitor__hk-okafor__t2')!.failedCheckpoints, ['repeat_potassium_ordered']);
  t.same(byId.get('nephrology__hyperkalemia-ace-inhibitor__hk-okafor__t2')!.causes, ['wrong_action']);
  t.same(byId.get(OKAFOR_T1)!.causes, [], 'a passing episode has no cause');
  t.same(failureCauses({ ...runA.episodes[2], error: 'no finish within 8 turns' }), ['agent_error', 'wrong_answer']);
});

t.test('trajectory: tool calls tied to their audited requests, turns to agent steps', async (t) => {
  const e = runA.episodes.find((x) => x.task.startsWith('nephrology') && x.variant === 'hk-okafor' && x.trial === 1)!;
  const trajectory = buildTrajectory(e);
  t.ok(trajectory.conversation);
  t.same(trajectory.steps.map((s) => s.source), ['system', 'user', 'agent', 'agent', 'agent', 'agent']);
  const calls = trajectory.steps.flatMap((s) => s.toolCalls);
  t.same(calls.map((c) => c.name), ['fhir_search', 'fhir_search', 'fhir_patch', 'fhir_create', 'finish']);
  const toolRequests = e.log.filter((x) => x.tool);
  t.same(calls.slice(0, 4).map((c) => c.seqs), toolRequests.map((x) => [x.seq]), 'each call its own request, in order');
  t.same(calls[4].seqs, [], 'finish makes no FHIR request');
  t.same(trajectory.steps.filter((s) => s.source === 'agent').map((s) => s.turn?.turn), [1, 2, 3, 4]);
  t.equal(trajectory.steps[2].results.length, 2, 'both search results answer the first agent step');

  // The oracle keeps no conversation: its steps are its requests.
  const oracle = buildTrajectory(runB.episodes.find((x) => x.variant === 'hk-okafor')!);
  t.notOk(oracle.conversation);
  t.equal(oracle.steps.length, 6);
  t.ok(oracle.steps.every((s) => s.requests.length === 1));
});

t.test('an Anthropic Messages transcript reads the same way: tool_use blocks, tool_result blocks answer them', async (t) => {
  const entry = (seq: number, tool: string, path: string): AuditEntry => ({ seq, time: 't', method: 'GET', path, query: [], status: 200, write: false, resourceIds: [], latencyMs: 1, tool });
  const trajectory = buildTrajectory({
    transcript: [
      { role: 'user', content: 'Check Patient/p1.' },
      { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, { type: 'tool_use', id: 'tu1', name: 'fhir_read', input: { resourceType: 'Patient', id: 'p1' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu1', content: '{"resourceType":"Patient"}' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'tu2', name: 'finish', input: { answer: 'done' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu2', content: [{ type: 'text', text: 'Answer submitted' }], is_error: false }] },
    ],
    log: [entry(3, 'fhir_read', 'Patient/p1')],
    turns: [1, 2].map((turn) => ({ turn, startedAt: 't', latencyMs: 1, usage: { prompt: 10 * turn, completion: 1 }, finishReason: 'tool_use', truncated: false, toolCalls: 1, retries: [] })),
  });
  t.same(trajectory.steps.map((s) => s.source), ['user', 'agent', 'agent']);
  t.equal(trajectory.instruction, 'Check Patient/p1.');
  t.equal(trajectory.system, undefined, 'the Messages API keeps the system prompt outside the messages');
  t.same(trajectory.steps[1].toolCalls, [{ id: 'tu1', name: 'fhir_read', arguments: { resourceType: 'Patient', id: 'p1' }, seqs: [3] }]);
  t.same(trajectory.steps[1].results, [{ callId: 'tu1', text: '{"resourceType":"Patient"}' }]);
  t.same(trajectory.steps[2].results, [{ callId: 'tu2', text: 'Answer submitted' }], 'text blocks of a result joined');
  t.same(trajectory.steps.map((s) => s.turn?.usage.prompt), [undefined, 10, 20]);
});

t.test('each write shows the resource before and after; evidence links to the steps it cites', async (t) => {
  const ep = reportData([`${fixtures}run-a`]).runs[0].trajectories[OKAFOR_T1];
  const patch = ep.steps.find((s) => s.toolCalls.some((c) => c.name === 'fhir_patch'))!;
  t.equal(patch.diffs.length, 1);
  const change = patch.diffs[0];
  t.equal(change.resource, 'MedicationRequest/hk-okafor-lisinopril');
  t.equal(change.span, 'write');
  t.equal(change.seq, patch.requests[0].seq);
  t.ok(change.diff.some(([op, line]) => op === '-' && line.includes('"status": "active"')), 'the old status removed');
  t.ok(change.diff.some(([op, line]) => op === '+' && line.includes('"status": "stopped"')), 'the new status added');
  t.ok(change.diff.some(([op, line]) => op === ' ' && line.includes('"intent": "order"')), 'unchanged lines kept as context');
  const created = ep.changes.find((c) => c.resource.startsWith('ServiceRequest/'))!;
  t.equal(created.action, 'created');
  t.ok(created.writes[0].diff.every(([op]) => op === '+'), 'a created resource is all additions');

  const retrieval = ep.verdicts.find((v) => v.id === 'reviewed_potassium')!;
  const search = ep.steps.find((s) => s.requests.some((q) => q.line.startsWith('GET Observation')))!;
  t.match(retrieval.evidence[0].text, /fetched at #\d+/);
  t.equal(retrieval.evidence[0].links.find((l) => l.text.startsWith('#'))!.step, search.n, 'the read that satisfied the retrieval checkpoint');
  const action = ep.verdicts.find((v) => v.id === 'ace_inhibitor_stopped')!;
  t.equal(action.evidence[0].links[0].step, patch.n, 'the write the action checkpoint judged');

  const failedT2 = reportData([`${fixtures}run-a`]).runs[0].trajectories['nephrology__hyperkalemia-ace-inhibitor__hk-okafor__t2'];
  t.same(failedT2.verdicts.find((v) => v.id === 'repeat_potassium_ordered')!.evidence[0], { text: 'no ServiceRequest was written', links: [] }, 'nothing to cite, no link');
});

t.test('a resource written twice: a diff per write, rebuilt from the request bodies', async (t) => {
  const order = (status: string, extra: object = {}) => ({ resourceType: 'MedicationRequest', id: 'm1', status, intent: 'order', subject: { reference: 'Patient/p' }, ...extra }) as never;
  const change: ResourceChange = {
    type: 'MedicationRequest', id: 'm1', action: 'updated', before: order('active'), after: order('stopped', { meta: { versionId: '3' } }),
    versions: [{ version: 2, lastUpdated: 't', deleted: false }, { version: 3, lastUpdated: 't', deleted: false }],
  };
  const write = (seq: number, method: string, requestBody: unknown, status = 200): AuditEntry => ({
    seq, time: 't', method, path: 'MedicationRequest/m1', query: [], status, write: true, requestBody, resourceIds: ['MedicationRequest/m1'], latencyMs: 1,
  });
  const log = [
    write(5, 'PATCH', [{ op: 'replace', path: '/status', value: 'on-hold' }]),
    write(6, 'PUT', { bad: true }, 400), // refused: changed nothing
    write(7, 'PUT', order('stopped')),
  ];
  const diffs = writeDiffs(change, log);
  t.same(diffs.map((d) => [d.seq, d.span]), [[5, 'write'], [7, 'write']]);
  const changed = (i: number) => diffs[i].diff.filter(([op]) => op !== ' ').map(([op, line]) => `${op}${line.trim().replace(/,$/, '')}`);
  t.same(changed(0), ['-"status": "active"', '+"status": "on-hold"'], 'first write: active -> on-hold');
  t.ok(changed(1).includes('-"status": "on-hold"') && changed(1).includes('+"status": "stopped"'), 'second write: on-hold -> stopped, ending at the recorded state');

  // A version that cannot be rebuilt (a transaction) gives one diff from the start to the end, at the last write.
  const viaTransaction = [write(5, 'POST', { resourceType: 'Bundle', type: 'transaction' }), write(7, 'PUT', order('stopped'))];
  t.same(writeDiffs(change, viaTransaction).map((d) => [d.seq, d.span]), [[7, 'episode']]);
});

t.test('comparison of two runs, per task', async (t) => {
  const rows = compareRuns(runA, runB);
  t.same(rows.map((r) => [r.task, r.a?.passes, r.a?.episodes, r.b?.passes, r.b?.episodes, r.change]), [
    ['endocrinology/a1c-glycemic-control', 0, 2, 2, 2, 1],
    ['nephrology/hyperkalemia-ace-inhibitor', 2, 4, 2, 2, 0.5],
  ]);
  const data = reportData([`${fixtures}run-a`, `${fixtures}run-b`]);
  t.same(data.runs.map((r) => r.label), ['run-a', 'run-b']);
  t.equal(data.comparison!.length, 2);
});

t.test('line diff and stable JSON', async (t) => {
  t.same(lineDiff('a\nb\nc', 'a\nx\nc'), [[' ', 'a'], ['-', 'b'], ['+', 'x'], [' ', 'c']]);
  t.same(lineDiff('', 'a'), [['+', 'a']]);
  t.same(lineDiff('a', ''), [['-', 'a']]);
  t.equal(stableJson({ b: 1, a: { d: 2, c: 3 } }), stableJson({ a: { c: 3, d: 2 }, b: 1 }), 'key order does not matter');
  t.equal(stableJson(null), '');
});

t.test('a directory that is not a results directory is refused with its name', async (t) => {
  let error: unknown;
  try {
    loadRun(fixtures);
  } catch (err) {
    error = err;
  }
  t.ok(error instanceof ResultsDirError, 'its own error class, which the commands print as one line');
  t.throws(() => loadRun(fixtures), { message: /no episodes\// });
});
