// The read pool (server/read-pool/): searches and other reads that can be heavy run on worker threads with their own
// read-only connections. What a client must see: the same answers as the main thread gives, its own writes at once,
// a read by id answered while heavy searches hold every worker, and a request past its stop ended without taking the
// pool down. Through real sockets, on a real database file.
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../../resources/storage/store.ts';
import { createSearchIndexer } from '../../../resources/search/index.ts';
import { ensureDefaultPopulation } from '../../../seed/index.ts';
import { startServer } from '../test-server.ts';

const dir = mkdtempSync(join(tmpdir(), 'ehr-gym-read-pool-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const dbPath = join(dir, 'pool.sqlite');
const seeded = new Store({ path: dbPath, indexers: [createSearchIndexer()] });
ensureDefaultPopulation(seeded, { patients: 8, seed: 1, progress: false });
seeded.close();

// One public root for both servers, so their answers can be compared byte for byte.
const common = { dbPath, baseUrl: 'http://ehr-gym.test', settings: { requestTimeBudgetMs: 60_000 } };
/** The worst-case search of issue 14: every include and reverse include, iterated, over every Observation. */
const HEAVY = 'Observation?_count=10000&_include=*&_revinclude=*&_include:iterate=*&_revinclude:iterate=*';

async function get(base: string, path: string, init: RequestInit = {}): Promise<{ status: number; body: string }> {
  const res = await fetch(`${base}/${path}`, init);
  return { status: res.status, body: await res.text() };
}

t.test('the pool answers what the main thread answers', async (t) => {
  const pooled = await startServer(t, { ...common, readPool: { workers: 2 } });
  await pooled.readPool!.ready();
  const plain = await startServer(t, common);
  const patients = JSON.parse((await get(plain.baseUrl, 'Patient?_count=3&_sort=_id')).body) as { entry: { resource: { id: string } }[] };
  const id = patients.entry[1].resource.id;
  const form = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `subject=Patient/${id}&_count=5` };
  const batch = {
    method: 'POST', headers: { 'content-type': 'application/fhir+json' },
    body: JSON.stringify({
      resourceType: 'Bundle', type: 'batch',
      entry: [{ request: { method: 'GET', url: `Condition?subject=Patient/${id}` } }, { request: { method: 'GET', url: `Patient/${id}` } }],
    }),
  };
  const requests: [string, RequestInit?][] = [
    ['Patient?gender=female&_sort=birthdate&_count=4'],
    [`Observation?subject=Patient/${id}&_sort=-date&_count=3&_include=Observation:subject`],
    [`MedicationRequest?subject=Patient/${id}&_revinclude:iterate=*&_total=accurate`],
    [`Patient/${id}/$everything?_count=20`],
    [`Patient/${id}/Condition`],
    ['Patient/_history?_count=3'],
    ['CodeSystem/$lookup?system=http://loinc.org&code=2160-0'],
    ['Observation?code:below=http://nowhere.example|x'],
    ['Patient?birthdate=not-a-date'],
    ['Observation/_search', form],
    ['', batch],
  ];
  // A history or batch-response Bundle's timestamp is the wall clock at answer time: the one field allowed to differ.
  const stable = (r: { status: number; body: string }) => ({ ...r, body: r.body.replace(/"timestamp":"[^"]*"/g, '"timestamp":"T"') });
  for (const [path, init] of requests) {
    const [a, b] = [stable(await get(pooled.baseUrl, path, init)), stable(await get(plain.baseUrl, path, init))];
    t.ok(a.status === b.status && a.body === b.body, `${init?.method ?? 'GET'} ${path || '/'}: the same status (${a.status}) and body`,
      { pooled: a.body.slice(0, 300), plain: b.body.slice(0, 300) });
  }
});

t.test("a session's writes are visible to its next search", async (t) => {
  const server = await startServer(t, { ...common, readPool: { workers: 2 } });
  await server.readPool!.ready();
  const created = await fetch(`${server.baseUrl.replace(/\/fhir$/, '')}/gym/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const base = `${server.baseUrl}/_session/${((await created.json()) as { id: string }).id}`;
  const json = { 'content-type': 'application/fhir+json' };
  const post = await fetch(`${base}/Patient`, { method: 'POST', headers: json, body: JSON.stringify({ resourceType: 'Patient', name: [{ family: 'Quillfeather' }] }) });
  t.equal(post.status, 201);
  const patient = (await post.json()) as { id: string };
  const found = async (family: string) => (JSON.parse((await get(base, `Patient?family=${family}`)).body) as { total: number }).total;
  t.equal(await found('Quillfeather'), 1, 'a create is found by the next search');
  t.equal(await found('Quillfeather') + (JSON.parse((await get(server.baseUrl, 'Patient?family=Quillfeather')).body) as { total: number }).total, 1, 'and only in its session');
  const put = await fetch(`${base}/Patient/${patient.id}`, { method: 'PUT', headers: json, body: JSON.stringify({ resourceType: 'Patient', id: patient.id, name: [{ family: 'Inkwell' }] }) });
  t.equal(put.status, 200);
  t.equal(await found('Quillfeather'), 0, 'an update replaces what the search matches');
  t.equal(await found('Inkwell'), 1);
  t.equal((await fetch(`${base}/Patient/${patient.id}`, { method: 'DELETE' })).status, 200);
  t.equal(await found('Inkwell'), 0, 'a delete is seen at once');
  const history = JSON.parse((await get(base, `Patient/${patient.id}/_history`)).body) as { total: number };
  t.equal(history.total, 3, 'history has every version');
});

t.test('a read by id answers while heavy searches hold every worker', async (t) => {
  const server = await startServer(t, { ...common, readPool: { workers: 2 } });
  await server.readPool!.ready();
  const patient = (JSON.parse((await get(server.baseUrl, 'Patient?_count=1')).body) as { entry: { resource: { id: string } }[] }).entry[0].resource.id;
  let heavyDone = 0;
  const heavy = Array.from({ length: 2 }, () => get(server.baseUrl, HEAVY).then((r) => {
    heavyDone++;
    return r;
  }));
  const reads: { status: number; heavyDoneBefore: number }[] = [];
  for (let i = 0; i < 5; i++) {
    const read = await get(server.baseUrl, `Patient/${patient}`);
    reads.push({ status: read.status, heavyDoneBefore: heavyDone });
  }
  t.same(reads.map((r) => r.status), [200, 200, 200, 200, 200]);
  t.same(reads.map((r) => r.heavyDoneBefore), [0, 0, 0, 0, 0], 'every read answered before any heavy search finished');
  t.same((await Promise.all(heavy)).map((r) => r.status), [200, 200], 'the heavy searches complete too');
});

t.test('a request past its stop ends its worker, and the pool goes on', async (t) => {
  const server = await startServer(t, { ...common, readPool: { workers: 1, stopAfterMs: 50 } });
  await server.readPool!.ready();
  const stopped = await get(server.baseUrl, HEAVY);
  t.equal(stopped.status, 422);
  const outcome = JSON.parse(stopped.body) as { resourceType: string; issue: { code: string; diagnostics: string }[] };
  t.equal(outcome.resourceType, 'OperationOutcome');
  t.equal(outcome.issue[0].code, 'too-costly');
  t.match(outcome.issue[0].diagnostics, /stopped after 50 ms/);
  // The next request waits for the replacement worker and is answered by it.
  const next = await get(server.baseUrl, 'Patient?_count=1');
  t.equal(next.status, 200);
  t.equal((JSON.parse(next.body) as { resourceType: string }).resourceType, 'Bundle');
});

t.test('workers that cannot start leave reads on the main thread', async (t) => {
  // A heap far below what a worker needs to load: every start fails, and the server answers by itself.
  const server = await startServer(t, { ...common, readPool: { workers: 1, maxHeapMiB: 4 } });
  // ready() resolves once the pool has given up on its workers (it never would if a failed start went unnoticed).
  await server.readPool!.ready();
  const res = await get(server.baseUrl, 'Patient?_count=2');
  t.equal(res.status, 200);
  t.equal((JSON.parse(res.body) as { entry: unknown[] }).entry.length, 2);
});
