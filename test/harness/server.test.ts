// The in-process benchmark server: asked for patients, it serves them (a seed that cannot load stops the start
// instead of leaving an empty database); asked for none, its base layer holds no patients.
import t from 'tap';
import { startBenchServer } from '../../harness/server.ts';

async function count(url: string, type: string): Promise<number> {
  const res = await fetch(`${url}/fhir/${type}?_summary=count`);
  if (res.status !== 200) throw new Error(`${type} count: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { total: number }).total;
}

t.test('asked for patients, the in-process server serves that population', async (t) => {
  const server = await startBenchServer({ patients: 3, seed: 5 });
  t.teardown(() => server.close());
  t.equal(server.seeded, '3 patients (seed 5)');
  t.equal(await count(server.url, 'Patient'), 3, 'every patient is there');
  t.ok((await count(server.url, 'Observation')) > 0, 'with their charts');
  const patient = await fetch(`${server.url}/fhir/Patient/s5-p2`);
  t.equal(patient.status, 200, 'the ids of seed 5');
});

t.test('asked for no patients, it seeds none', async (t) => {
  const server = await startBenchServer({ patients: 0 });
  t.teardown(() => server.close());
  t.equal(server.seeded, undefined);
  t.equal(await count(server.url, 'Patient'), 0);
});
