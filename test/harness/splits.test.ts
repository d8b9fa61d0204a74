// Issue 21 item 3: train/test splits. Patients are partitioned by a hash of their id (contracts/splits.ts); a task's
// variants come from both partitions where its candidates allow; held-out tasks are test only; the runner's --split
// runs only that split's variants; the task.json schema takes the marks and refuses the old dev/test ones.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import type { Bundle } from '@medplum/fhirtypes';
import { patientSplit, taskInSplit, taskSplit, TEST_SHARE, variantInSplit, variantSplit } from '../../contracts/splits.ts';
import type { Task } from '../../contracts/task.ts';
import { GymClient } from '../../harness/gym-client.ts';
import { oracleAgent } from '../../harness/agents/oracle.ts';
import { runBenchmark } from '../../harness/runner.ts';
import { startBenchServer } from '../../harness/server.ts';
import { loadTask, selectTaskIds } from '../../harness/task-loader.ts';
import { findVariants } from '../../harness/variants.ts';
import { FIXTURE_TASKS } from '../fixtures/fixture-tasks.ts';

const server = await startBenchServer({ patients: 0, tasksDir: FIXTURE_TASKS });
t.teardown(() => server.close());
const gym = new GymClient(server.url);
const A1C = 'endocrinology/a1c-glycemic-control';
const HK = 'nephrology/hyperkalemia-ace-inhibitor';
const POPULATION = 'cardiology/hypertension-bp-control-rate';

t.test('the patient partition: a pure function of the id, about TEST_SHARE of patients in test', async (t) => {
  const ids = Array.from({ length: 2000 }, (_, i) => `p-${i}`);
  const test = ids.filter((id) => patientSplit(id) === 'test').length;
  t.ok(Math.abs(test / ids.length - TEST_SHARE) < 0.05, `${test} of ${ids.length} in test`);
  t.same(ids.map(patientSplit), ids.map(patientSplit), 'the same id, the same split');
  // Pinned: a change of the hash or salt would move patients between splits, silently contaminating test with train.
  t.same(['hk-okafor', 'hk-ramos', 'dm-chen', 'dm-haddad', 'dm-novak'].map(patientSplit), ['train', 'train', 'test', 'train', 'train']);
});

t.test('task marks: by patient by default, held-out and train whole; population tasks held out unless marked train', async (t) => {
  t.equal(taskSplit({ level: 'patient' }), 'by-patient');
  t.equal(taskSplit({ level: 'patient', split: 'held-out' }), 'held-out');
  t.equal(taskSplit({ level: 'population' }), 'held-out');
  t.equal(taskSplit({ level: 'population', split: 'train' }), 'train');
  t.equal(variantSplit('held-out', 'dm-haddad'), 'test', 'a held-out task\'s train patient is still test');
  t.equal(variantSplit('train', 'dm-chen'), 'train');
  t.equal(variantSplit('by-patient', 'dm-chen'), 'test');
  t.same(['train', 'test', 'held-out'].map((f) => taskInSplit('held-out', f as never)), [false, true, true]);
  t.same(['train', 'test', 'held-out'].map((f) => taskInSplit('by-patient', f as never)), [true, true, false]);
  t.same(['train', 'test', 'held-out'].map((f) => taskInSplit('train', f as never)), [true, false, false]);
  t.notOk(variantInSplit('by-patient', 'dm-chen', 'held-out'));
});

t.test('tasks/schema.json: split takes train and held-out; the old dev/test marks are refused', async (t) => {
  const schema = JSON.parse(readFileSync(new URL('../../tasks/schema.json', import.meta.url), 'utf8'));
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(schema);
  const spec = JSON.parse(readFileSync(`${FIXTURE_TASKS}/${A1C}/task.json`, 'utf8'));
  t.ok(validate(spec), 'a task without split (every existing task) stays valid');
  for (const split of ['train', 'held-out']) t.ok(validate({ ...spec, split }), split);
  for (const split of ['dev', 'test', 'both']) t.notOk(validate({ ...spec, split }), split);
});

/** Patients p-0.. in a fixture, all candidates of a task with no criteria. */
function patientsTask(base: Task, count: number, maxVariants: number, split?: 'held-out'): Task {
  const fixture: Bundle = {
    resourceType: 'Bundle', type: 'transaction',
    entry: Array.from({ length: count }, (_, i) => ({ resource: { resourceType: 'Patient' as const, id: `p-${i}` }, request: { method: 'PUT' as const, url: `Patient/p-${i}` } })),
  };
  return { ...base, fixture, spec: { ...base.spec, binding: { maxVariants }, ...(split ? { split } : {}) } };
}

t.test('findVariants: a partitioned task keeps its last slot for the split its first variants lack', async (t) => {
  const base = await loadTask(A1C, FIXTURE_TASKS);
  const ids = Array.from({ length: 12 }, (_, i) => `p-${i}`).sort();
  // The first two sorted patients of one split, so the plain "first N" rule would give one split only.
  const firstSplit = patientSplit(ids[0]);
  const n = ids.findIndex((id) => patientSplit(id) !== firstSplit);
  t.ok(n >= 1, `the first ${n} sorted patients are ${firstSplit}`);
  const max = n + 1 > 2 ? n : 2;
  const variants = await findVariants(patientsTask(base, 12, max), gym);
  t.equal(variants.length, max);
  t.same(new Set(variants.map(patientSplit)).size, 2, `both splits among ${variants.join(', ')}`);
  t.same(variants, [...variants].sort(), 'sorted');
  t.same(await findVariants(patientsTask(base, 12, max), gym), variants, 'deterministic');
  const heldOut = await findVariants(patientsTask(base, 12, max, 'held-out'), gym);
  t.same(heldOut, ids.slice(0, max), 'a held-out task takes the first candidates: all its variants are test anyway');
  // The fixture A1C task: dm-chen (test) and dm-haddad (train).
  t.same(await findVariants(base, gym), ['dm-chen', 'dm-haddad']);
});

t.test('runner --split: only the variants of the split; held-out tasks only in test', async (t) => {
  const tasks = await Promise.all(selectTaskIds([A1C, HK, POPULATION], FIXTURE_TASKS).map((id) => loadTask(id, FIXTURE_TASKS)));
  const train = await runBenchmark({ tasks, agent: oracleAgent, gym, trials: 1, concurrency: 2, split: 'train' });
  t.same(train.variants, { [A1C]: ['dm-haddad'], [HK]: ['hk-okafor', 'hk-ramos'] });
  t.same(train.problems, []);
  t.equal(train.summary.pass1, 1, 'the oracle passes every train variant');
  const test = await runBenchmark({ tasks, agent: oracleAgent, gym, trials: 1, concurrency: 2, split: 'test' });
  t.same(test.variants, { [A1C]: ['dm-chen'], [POPULATION]: ['population'] });
  t.same(test.episodes.map((e) => e.variant).sort(), ['dm-chen', 'population']);
  const heldOut = await runBenchmark({ tasks, agent: oracleAgent, gym, trials: 1, concurrency: 2, split: 'held-out' });
  t.same(Object.keys(heldOut.variants), [POPULATION]);
});

t.test('OpenEnv reset samples within the split; GET /gym/tasks?split= lists its tasks', async (t) => {
  const post = async (body: unknown) => {
    const response = await fetch(`${server.url}/openenv/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: await response.json() as any };
  };
  for (const split of ['train', 'test'] as const) {
    const drawn = new Set<string>();
    for (let seed = 0; seed < 10; seed++) {
      const { observation } = (await post({ seed, split })).body;
      t.ok(variantInSplit(taskSplit({ level: observation.variant === 'population' ? 'population' : 'patient' }), observation.variant, split), `${split} seed ${seed}: ${observation.variant}`);
      drawn.add(observation.variant);
    }
    t.ok(drawn.size > 1, `${split}: several variants drawn (${[...drawn].join(', ')})`);
  }
  t.equal((await post({ task: A1C, variant: 'dm-chen', split: 'train' })).status, 400, 'a given variant must be of the split');
  const listed = await (await fetch(`${server.url}/gym/tasks?split=held-out`)).json() as { tasks: { id: string; split: string }[] };
  t.same(listed.tasks.map((c) => [c.id, c.split]), [[POPULATION, 'held-out']]);
});
