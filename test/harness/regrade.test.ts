// Issue 19 item 3: `ehr-gym grade`. `--results DIR` re-grades a stored run from its episode files (audit log, changes,
// answer) without running the agent, reproducing the stored verdicts; a changed grade is reported and `--check` fails.
// `--server URL --session ID` grades a running session.
import t from 'tap';
import { execFile } from 'node:child_process';
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runBenchmark } from '../../harness/runner.ts';
import { GymClient } from '../../harness/gym-client.ts';
import { startBenchServer } from '../../harness/server.ts';
import { loadTask, repoRoot } from '../../harness/task-loader.ts';
import { oracleAgent } from '../../harness/agents/oracle.ts';
import { nullAgent } from '../../harness/agents/null.ts';
import { regradeResults } from '../../harness/regrade.ts';
import { FIXTURE_TASKS } from '../fixtures/fixture-tasks.ts';

const exec = promisify(execFile);
const HK = 'nephrology/hyperkalemia-ace-inhibitor';
const A1C = 'endocrinology/a1c-glycemic-control';

/** `ehr-gym ...` as a user runs it; resolves with the exit code and output (a non-zero exit does not throw). */
async function ehrGym(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, ['--import', 'tsx', join(repoRoot, 'bin', 'ehr-gym.ts'), ...args], { cwd: repoRoot, timeout: 300_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

const server = await startBenchServer({ patients: 0, tasksDir: FIXTURE_TASKS });
t.teardown(() => server.close());
const gym = new GymClient(server.url);
const tasks = await Promise.all([HK, A1C].map((id) => loadTask(id, FIXTURE_TASKS)));

t.test('ehr-gym grade --results DIR reproduces a stored run\'s verdicts, passing and failing episodes alike', async (t) => {
  const out = t.testdir({});
  await runBenchmark({ tasks, agent: oracleAgent, gym, trials: 1, concurrency: 2, outDir: join(out, 'oracle') });
  await runBenchmark({ tasks, agent: nullAgent, gym, trials: 1, concurrency: 2, outDir: join(out, 'null') });
  for (const run of ['oracle', 'null']) {
    const dir = join(out, run);
    const stored = readdirSync(join(dir, 'episodes'));
    t.ok(stored.length >= 3, `${run}: episodes written`);
    const episode = JSON.parse(readFileSync(join(dir, 'episodes', stored[0]), 'utf8'));
    t.ok(typeof episode.now === 'string' && typeof episode.graderVersion === 'string', `${run}: the episode file keeps now and the grader version`);

    const result = await ehrGym('grade', '--results', dir, '--tasks-dir', FIXTURE_TASKS, '--patients', '0', '--check', '--json', '--out', join(out, `${run}-regraded`));
    t.equal(result.code, 0, `${run}: exit 0 (${result.stderr.slice(0, 500)})`);
    const regraded = JSON.parse(result.stdout) as { reproduced: boolean; before: { pass: boolean; score: number }; after: { pass: boolean; score: number; graderVersion: string } }[];
    t.equal(regraded.length, stored.length, `${run}: every episode re-graded`);
    for (const r of regraded) {
      t.equal(r.reproduced, true, `${run}: verdicts reproduced`);
      t.same(r.after.pass, r.before.pass);
      t.same(r.after.score, r.before.score);
      // The stored run's grader version equals it while the grading code is unchanged (it digests that code).
      t.match(r.after.graderVersion, /^\d+\.\d+\.\d+\+[0-9a-f]{12}$/);
    }
    t.equal(regraded.every((r) => r.after.pass), run === 'oracle', `${run}: ${run === 'oracle' ? 'passes' : 'fails'} as stored`);
    const rewritten = JSON.parse(readFileSync(join(out, `${run}-regraded`, 'episodes', stored[0]), 'utf8'));
    t.same(rewritten.verdicts, episode.verdicts, `${run}: --out writes the re-graded episode`);
    const report = JSON.parse(readFileSync(join(out, `${run}-regraded`, 'regrade.json'), 'utf8'));
    t.same([report.reproduced, report.graded], [stored.length, stored.length]);
  }
});

t.test('a stored grade the grading no longer gives is reported as changed, and --check exits 1', async (t) => {
  const out = t.testdir({});
  const dir = join(out, 'run');
  await runBenchmark({ tasks: [tasks[0]], agent: oracleAgent, gym, trials: 1, concurrency: 1, outDir: dir });
  const copy = join(out, 'tampered');
  cpSync(dir, copy, { recursive: true });
  // As if an older grader had failed a checkpoint: the stored verdict differs from what grading gives now.
  const file = join(copy, 'episodes', readdirSync(join(copy, 'episodes'))[0]);
  const episode = JSON.parse(readFileSync(file, 'utf8'));
  episode.verdicts[0] = { ...episode.verdicts[0], pass: false, score: 0, failure: 'missing_retrieval' };
  episode.pass = false;
  writeFileSync(file, JSON.stringify(episode));
  const regraded = await regradeResults(copy, gym, { tasksDir: FIXTURE_TASKS });
  t.equal(regraded.length, 2, 'both variants');
  const [tampered, untouched] = [regraded.find((r) => r.file === file)!, regraded.find((r) => r.file !== file)!];
  t.equal(tampered.reproduced, false);
  t.same(tampered.changed.map((c) => c.id), [episode.verdicts[0].id]);
  t.same([tampered.before.pass, tampered.after.pass], [false, true]);
  t.equal(untouched.reproduced, true);

  const result = await ehrGym('grade', '--results', copy, '--tasks-dir', FIXTURE_TASKS, '--patients', '0', '--check');
  t.equal(result.code, 1, '--check fails');
  t.match(result.stdout, new RegExp(`CHANGED +${HK} .*${episode.verdicts[0].id} fail -> pass`));
  t.match(result.stdout, /1\/2 episode\(s\) reproduced their stored verdicts; 2\/2 pass after re-grading/);
});

t.test('a results folder that is not one, and the session form\'s flags, are usage errors', async (t) => {
  const empty = t.testdir({});
  const missing = await ehrGym('grade', '--results', empty, '--patients', '0');
  t.not(missing.code, 0);
  t.match(missing.stderr, /holds no episodes\/ folder/);
  const noServer = await ehrGym('grade', '--session', 'abc');
  t.not(noServer.code, 0);
  t.match(noServer.stderr, /--session needs --server/);
  const nothing = await ehrGym('grade');
  t.not(nothing.code, 0);
  t.match(nothing.stderr, /--results DIR/);
});

t.test('ehr-gym grade --server URL --session ID grades a running session', async (t) => {
  const session = await gym.createSession({ task: HK, variant: 'hk-ramos' });
  await gym.submit(session.id, 'K 5.9 mmol/L');
  const json = await ehrGym('grade', '--server', server.url, '--session', session.id, '--json');
  t.equal(json.code, 0, json.stderr);
  const grade = JSON.parse(json.stdout);
  t.same([grade.session, grade.task, grade.variant, grade.submitted], [session.id, HK, 'hk-ramos', true]);
  t.equal(grade.verdicts.find((v: { id: string }) => v.id === 'stated_potassium').pass, true);
  const text = await ehrGym('grade', '--server', server.url, '--session', session.id);
  t.equal(text.code, 0);
  t.match(text.stdout, new RegExp(`^session ${session.id}: ${HK} hk-ramos FAIL, checkpoint score`));
  t.match(text.stdout, /\n {2}pass {2}stated_potassium \[clinical_reasoning, weight 1\]/);
  const unknown = await ehrGym('grade', '--server', server.url, '--session', 'AAAAAAAAAAAAAAAAAAAAAAAA');
  t.equal(unknown.code, 1);
  t.match(unknown.stderr, /-> 404/);
});
