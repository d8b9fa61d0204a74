// Issue 21 item 5: robustness perturbations as session options (server/gym/perturbations.ts), against a listening
// server. Each perturbation happens, is the same for the same seed, and is recorded with the session (and so the
// runner's episode); chart noise never changes the right answer: the oracle passes every variant of the fixture tasks
// under it, and `ehr-gym run --perturb` reports the score drop against a clean run of the same variants.
import t from 'tap';
import type { Bundle } from '@medplum/fhirtypes';
import { episodeSeed, perturbationKinds } from '../../../contracts/perturbations.ts';
import { perturbKinds } from '../../../harness/cli.ts';
import { GymClient } from '../../../harness/gym-client.ts';
import { oracleAgent } from '../../../harness/agents/oracle.ts';
import { formatComparison, runPerturbationComparison } from '../../../harness/perturb.ts';
import { runBenchmark } from '../../../harness/runner.ts';
import { startBenchServer } from '../../../harness/server.ts';
import { loadTask, readTaskSpec, selectTaskIds } from '../../../harness/task-loader.ts';
import { FIXTURE_TASKS } from '../../fixtures/fixture-tasks.ts';

const server = await startBenchServer({ patients: 0, tasksDir: FIXTURE_TASKS });
t.teardown(() => server.close());
const HK = 'nephrology/hyperkalemia-ace-inhibitor';
const A1C = 'endocrinology/a1c-glycemic-control';

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(server.url + path, { method, ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

async function session(body: Record<string, unknown>): Promise<{ id: string; fhirBaseUrl: string; instruction: string; perturbations?: any }> {
  const res = await call('POST', '/gym/sessions', body);
  if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

t.test('API faults: a seeded share of requests answers 429/503 with Retry-After; the same seed, the same faults; recorded and logged', async (t) => {
  const statuses = async (seed: number) => {
    const s = await session({ task: HK, variant: 'hk-ramos', perturbations: { seed, faults: { rate: 0.4, retryAfter: 2 }, latencyMs: 5 } });
    const out: number[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await fetch(`${s.fhirBaseUrl}/Patient/hk-ramos`);
      out.push(res.status);
      t.equal(res.headers.get('x-ehr-gym-added-latency'), '5', 'the added latency is announced');
      if (res.status !== 200) {
        t.equal(res.headers.get('retry-after'), '2');
        const outcome = await res.json() as { resourceType: string; issue: { code: string }[] };
        t.equal(outcome.resourceType, 'OperationOutcome');
      } else await res.arrayBuffer();
    }
    return { s, out };
  };
  const one = await statuses(7);
  const faulted = one.out.filter((s) => s !== 200);
  t.ok(faulted.length > 3 && faulted.length < 27, `${faulted.length} of 30 faulted`);
  t.ok(faulted.includes(429) && faulted.includes(503), 'both kinds of fault');
  t.same((await statuses(7)).out, one.out, 'the same seed, the same faults request for request');
  t.not((await statuses(8)).out.join(), one.out.join(), 'another seed, other faults');
  const summary = (await call('GET', `/gym/sessions/${one.s.id}`)).body;
  t.same(summary.perturbations, { seed: 7, faults: { rate: 0.4, retryAfter: 2 }, latencyMs: 5 }, 'recorded with the session');
  const log = (await call('GET', `/gym/sessions/${one.s.id}/log`)).body.entries as { status: number }[];
  t.same(log.map((e) => e.status), one.out, 'the faulted requests are in the audit log as answered');
  // The server's own reads (the grade) are never faulted: the grade of the session succeeds.
  t.equal((await call('POST', `/gym/sessions/${one.s.id}/grade`)).status, 200);
  t.equal((await call('POST', '/gym/sessions', { task: HK, variant: 'hk-ramos', perturbations: { faults: { rate: 1 } } })).status, 400, 'a rate of 1 is refused');
  t.equal((await call('POST', '/gym/sessions', { task: HK, variant: 'hk-ramos', perturbations: { colour: 'blue' } })).status, 400);
});

t.test('paraphrase: one of the task\'s paraphrases, picked by the seed and recorded; a task without any keeps its instruction', async (t) => {
  const spec = readTaskSpec(HK, FIXTURE_TASKS);
  const bound = spec.paraphrases!.map((p) => p.replaceAll('{patient}', 'hk-ramos'));
  const picked = new Map<number, string>();
  for (let seed = 0; seed < 8; seed++) {
    const s = await session({ task: HK, variant: 'hk-ramos', perturbations: { seed, paraphrase: true } });
    t.ok(bound.includes(s.instruction), `seed ${seed}: a paraphrase`);
    t.equal(s.instruction, bound[s.perturbations.paraphrase.index], 'the recorded index names it');
    t.equal((await session({ task: HK, variant: 'hk-ramos', perturbations: { seed, paraphrase: true } })).instruction, s.instruction, 'deterministic');
    picked.set(s.perturbations.paraphrase.index, s.instruction);
  }
  t.equal(picked.size, 2, 'seeds reach every paraphrase');
  const none = await session({ task: A1C, variant: 'dm-chen', perturbations: { paraphrase: true } });
  t.same(none.perturbations.paraphrase, { index: null });
  t.equal(none.instruction, (await session({ task: A1C, variant: 'dm-chen' })).instruction);
});

t.test('chart noise: each kind added to the overlay at the start (not the episode\'s changes), deterministic, recorded, re-applied on reset', async (t) => {
  const s = await session({ task: HK, variant: 'hk-ramos', perturbations: { seed: 3, noise: true } });
  const added = s.perturbations.noise.added as Record<string, string[]>;
  for (const kind of ['duplicates', 'unit-variants', 'entered-in-error', 'distractor-notes']) t.ok(added[kind]?.length > 0, `${kind}: ${added[kind]?.join(', ')}`);
  const read = async (ref: string) => (await call('GET', `/fhir/_session/${s.id}/${ref}`)).body;
  const eie = await read(added['entered-in-error'][0]);
  t.equal(eie.status, 'entered-in-error');
  const unit = await read(added['unit-variants'][0]);
  t.equal(unit.valueQuantity.code, 'meq/L', 'potassium also reported in mEq/L');
  const note = await read(added['distractor-notes'][0]);
  t.same([note.resourceType, note.subject.reference], ['DocumentReference', 'Patient/hk-ramos']);
  t.same((await call('GET', `/gym/sessions/${s.id}/changes`)).body.changes, [], 'noise is the starting chart, not the episode\'s changes');
  const again = await session({ task: HK, variant: 'hk-ramos', perturbations: { seed: 3, noise: true } });
  t.same(again.perturbations.noise.added, added, 'the same seed, the same noise');
  t.same((await call('POST', `/gym/sessions/${s.id}/reset`)).body.perturbations.noise.added, added, 'reset re-applies it');
  t.equal((await read(added['entered-in-error'][0])).status, 'entered-in-error');

  // Shuffled result order: a search without _sort comes back in another order than in a clean session; with _sort, not.
  const clean = await session({ task: HK, variant: 'hk-ramos', perturbations: { seed: 3, noise: ['duplicates', 'unit-variants', 'entered-in-error', 'distractor-notes'] } });
  const ids = async (base: string, query: string) => ((await call('GET', `${base}/Observation?patient=hk-ramos&${query}`)).body as Bundle).entry!.map((e) => e.resource!.id);
  const shuffled = await ids(`/fhir/_session/${s.id}`, '_count=100');
  const plain = await ids(`/fhir/_session/${clean.id}`, '_count=100');
  t.same([...shuffled].sort(), [...plain].sort(), 'the same results');
  t.not(shuffled.join(), plain.join(), 'in another order');
  t.same(await ids(`/fhir/_session/${s.id}`, '_count=100'), shuffled, 'the same search, the same order');
  t.same(await ids(`/fhir/_session/${s.id}`, '_sort=-date'), await ids(`/fhir/_session/${clean.id}`, '_sort=-date'), '_sort is honoured');
});

t.test('the oracle passes every variant of the fixture tasks under chart noise and paraphrase; episodes record their perturbations', async (t) => {
  // The patient-level fixture tasks (they carry their patients; the population task needs a seeded population, and
  // chart noise is per patient).
  const tasks = await Promise.all(selectTaskIds([HK, A1C], FIXTURE_TASKS).map((id) => loadTask(id, FIXTURE_TASKS)));
  const gym = new GymClient(server.url);
  for (const seed of [1, 2]) {
    const run = await runBenchmark({ tasks, agent: oracleAgent, gym, trials: 1, concurrency: 2, perturbations: { seed, noise: true, paraphrase: true } });
    t.same(run.problems, []);
    for (const e of run.episodes.filter((x) => !x.pass)) t.comment(e.task, e.variant, JSON.stringify(e.verdicts.filter((v) => !v.pass)), e.error ?? '');
    t.equal(run.summary.pass1, 1, `seed ${seed}: the oracle passes all ${run.episodes.length} episodes`);
    t.equal(run.episodes.length, 4);
    const hk = run.episodes.find((e) => e.task === HK)!;
    t.equal(hk.perturbations?.seed, episodeSeed(seed, HK, hk.variant, 1), 'the episode\'s seed, drawn from the run\'s');
    t.ok(hk.perturbations?.noise?.added['entered-in-error']?.length, 'the noise is in the episode record');
  }
});

t.test('ehr-gym run --perturb: clean and perturbed runs on the same variants, and the score drop', async (t) => {
  t.same(perturbKinds('noise,faults,noise'), ['noise', 'faults']);
  t.throws(() => perturbKinds('noise,weather'));
  t.same([...perturbationKinds], ['faults', 'latency', 'paraphrase', 'noise']);
  const tasks = await Promise.all(selectTaskIds([HK, A1C], FIXTURE_TASKS).map((id) => loadTask(id, FIXTURE_TASKS)));
  const comparison = await runPerturbationComparison({ tasks, agent: oracleAgent, gym: new GymClient(server.url), trials: 1, concurrency: 2 }, ['noise', 'faults'], 5);
  const noise = comparison.perturbed.find((p) => p.kind === 'noise')!;
  const faults = comparison.perturbed.find((p) => p.kind === 'faults')!;
  const key = (episodes: { task: string; variant: string }[]) => episodes.map((e) => `${e.task} ${e.variant}`).sort();
  t.same(key(noise.result.episodes), key(comparison.clean.episodes), 'the same variants');
  t.same(noise.drop, { checkpointScore: 0, pass1: 0 }, 'chart noise costs the oracle nothing');
  t.ok(faults.result.episodes.every((e) => e.perturbations?.faults?.rate === 0.2), 'faulted episodes record the rate');
  // The oracle does not retry: a faulted request fails its episode, and the drop shows it (deterministic for seed 5).
  t.ok(faults.drop.checkpointScore >= 0);
  const table = formatComparison(comparison);
  t.match(table, /\| clean \| 4 \| 100\.0% \| 100\.0% \|/);
  t.match(table, /\| noise \| 4 \| 100\.0% \| 100\.0% \| 0\.0 pt \| 0\.0 pt \|/);
});

t.test('OpenEnv reset takes perturbations: the episode\'s session is perturbed and its state records them', async (t) => {
  const reset = await call('POST', '/openenv/reset', { task: HK, variant: 'hk-ramos', perturbations: { seed: 4, paraphrase: true, noise: ['entered-in-error'] } });
  t.equal(reset.status, 200);
  const state = (await call('GET', `/openenv/state?episode_id=${reset.body.observation.episode_id}`)).body;
  t.equal(state.perturbations.seed, 4);
  t.equal(state.perturbations.noise.added['entered-in-error'].length, 1);
  const paraphrases = readTaskSpec(HK, FIXTURE_TASKS).paraphrases!.map((p) => p.replaceAll('{patient}', 'hk-ramos'));
  t.equal(reset.body.observation.instruction, paraphrases[state.perturbations.paraphrase.index], 'the observation carries the paraphrase');
  t.equal((await call('POST', '/openenv/reset', { task: HK, variant: 'hk-ramos', perturbations: { noise: ['hail'] } })).status, 422);
});
