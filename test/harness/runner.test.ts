// `ehr-gym run` end to end: oracle 100% and null 0% pass@1 on the example tasks, pass^k, files written, reproducible.
import t from 'tap';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runBenchmark } from '../../harness/runner.ts';
import { GymClient } from '../../harness/gym-client.ts';
import { startBenchServer } from '../../harness/server.ts';
import { loadTask, selectTaskIds } from '../../harness/task-loader.ts';
import { oracleAgent } from '../../harness/agents/oracle.ts';
import { nullAgent } from '../../harness/agents/null.ts';
import { FIXTURE_TASKS } from '../fixtures/fixture-tasks.ts';

const server = await startBenchServer({ patients: 0, tasksDir: FIXTURE_TASKS });
t.teardown(() => server.close());
const gym = new GymClient(server.url);
// The example tasks carry fixture patients, so they run without a seeded population.
const tasks = await Promise.all(selectTaskIds(['nephrology/hyperkalemia-ace-inhibitor', 'endocrinology/a1c-glycemic-control'], FIXTURE_TASKS).map((id) => loadTask(id, FIXTURE_TASKS)));

t.test('oracle: pass@1 and pass^k are 100%, results written', async (t) => {
  const out = t.testdir({});
  const run = await runBenchmark({ tasks, agent: oracleAgent, gym, trials: 2, concurrency: 3, outDir: out });
  t.same(run.problems, []);
  t.equal(run.summary.pass1, 1);
  t.same(run.summary.passHatK, { 1: 1, 2: 1 });
  t.equal(run.summary.checkpointScore, 1);
  const episodes = readdirSync(join(out, 'episodes'));
  t.equal(episodes.length, run.episodes.length);
  const one = JSON.parse(readFileSync(join(out, 'episodes', episodes[0]), 'utf8'));
  t.ok(Array.isArray(one.verdicts) && one.verdicts.every((v: { evidence: string[] }) => v.evidence.length > 0), 'every verdict has evidence');
  t.ok(one.log.length > 0, 'the audit log is kept');
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
  t.equal(summary.summary.pass1, 1);

  const again = await runBenchmark({ tasks, agent: oracleAgent, gym, trials: 2, concurrency: 1 });
  const key = (r: typeof run) => r.episodes.map((e) => [e.task, e.variant, e.trial, e.pass, e.score, e.verdicts.map((v) => v.pass)]);
  t.same(key(again), key(run), 'reproducible run to run');
});

t.test('null: pass@1 is 0 and action checkpoints fail as no_action', async (t) => {
  const run = await runBenchmark({ tasks, agent: nullAgent, gym, trials: 1, concurrency: 2 });
  t.equal(run.summary.pass1, 0);
  t.equal(run.summary.byCategory.action_execution?.passed, 0);
  t.ok((run.summary.failures.no_action ?? 0) > 0);
  t.ok((run.summary.failures.no_answer ?? 0) > 0);
});
