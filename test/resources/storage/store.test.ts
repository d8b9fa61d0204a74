// Store layout: each version's JSON is stored once. A history row holds NULL while its version is the current one of
// its layer (the JSON is in resource_current) and gets the JSON when a later write to the layer supersedes it.
// Behaviour is checked through the public API (Repository, HTTP vread/history); the layout with SQL on the database.
import t, { type Test } from 'tap';
import type { Bundle, Patient } from '@medplum/fhirtypes';
import { Store, type ResourceIndexer } from '../../../resources/storage/store.ts';
import { Repository } from '../../../resources/storage/repository.ts';
import { BASE_LAYER, makeSandbox, virtualClock } from '../../../resources/storage/sandbox.ts';
import { bodyOf, injectApp, JSON_HEADERS, patientBody } from '../../server/test-server.ts';

const START = new Date('2024-05-01T00:00:00.000Z');
const patient = (id: string, family: string) => ({ resourceType: 'Patient', id, name: [{ family }] }) as Patient & { id: string };

function setUp(t: Test, indexers: ResourceIndexer[] = []) {
  const store = new Store({ path: ':memory:', indexers });
  t.teardown(() => store.close());
  const clock = virtualClock(START);
  const repo = (name: string) => new Repository(store, makeSandbox(name, { clock }));
  return { store, repo };
}

type LayoutRow = { sandbox: string; type: string; id: string; version: number; deleted: number; json: string | null };

/** Every history row as stored (no resolution), oldest first. */
function historyRows(store: Store): LayoutRow[] {
  return store.db.prepare('SELECT sandbox, type, id, version, deleted, json FROM resource_history ORDER BY rowid').all() as LayoutRow[];
}

/** "sandbox/type/id/version" of every live history row whose JSON is not stored in the row itself. */
function nullLiveRows(store: Store): string[] {
  return historyRows(store).filter((r) => r.deleted === 0 && r.json === null).map((r) => `${r.sandbox}/${r.type}/${r.id}/${r.version}`).sort();
}

/** "sandbox/type/id/version" of the live current version of every resource in every layer. */
function liveCurrent(store: Store): string[] {
  return (store.db.prepare('SELECT sandbox, type, id, version FROM resource_current WHERE deleted = 0').all() as LayoutRow[])
    .map((r) => `${r.sandbox}/${r.type}/${r.id}/${r.version}`).sort();
}

const family = (json: string | null | undefined) => (json ? (JSON.parse(json) as Patient).name?.[0]?.family : null);

t.test('create, update, update, delete, re-create: every version reads back as written; only the live current row is NULL', async (t) => {
  const { store, repo } = setUp(t);
  const r = repo('default');
  const written: (string | null)[] = [];
  written.push(r.write(patient('p1', 'One')).json);
  r.write(patient('other', 'Other'));
  written.push(r.write(patient('p1', 'Two')).json);
  t.same(nullLiveRows(store), ['default/Patient/other/1', 'default/Patient/p1/2'], 'after an update only the current versions hold no JSON');
  written.push(r.write(patient('p1', 'Three')).json);
  t.ok(r.remove('Patient', 'p1'));
  written.push(null);
  t.same(nullLiveRows(store), ['default/Patient/other/1'], 'a deletion archives the version it supersedes');
  written.push(r.write(patient('p1', 'Five')).json);

  for (let v = 1; v <= 5; v++) {
    const found = r.version('Patient', 'p1', v);
    t.equal(found?.deleted, v === 4, `version ${v} deleted flag`);
    t.equal(found?.json, written[v - 1], `version ${v} is exactly the JSON written then`);
  }
  t.equal(family(r.current('Patient', 'p1')?.json), 'Five');
  t.equal(family(r.version('Patient', 'other', 1)?.json), 'Other', 'the other resource is untouched');

  const instance = r.history({ type: 'Patient', id: 'p1', count: 10, offset: 0 }).versions;
  t.same(instance.map((v) => v.version), [5, 4, 3, 2, 1], 'instance history lists every version');
  t.same(instance.map((v) => v.json), [...written].reverse(), 'instance history: each version with its own body');
  const type = r.history({ type: 'Patient', count: 10, offset: 0 }).versions;
  t.same(type.map((v) => `${v.id}/${v.version}:${family(v.json)}`),
    ['p1/5:Five', 'p1/4:null', 'p1/3:Three', 'p1/2:Two', 'other/1:Other', 'p1/1:One'], 'type history bodies');
  const system = r.history({ count: 10, offset: 0 }).versions;
  t.same(system.map((v) => v.json), type.map((v) => v.json), 'system history bodies');

  const rows = historyRows(store).filter((row) => row.id === 'p1');
  t.same(rows.map((row) => row.json), [written[0], written[1], written[2], null, null],
    'superseded versions hold their exact JSON; the deletion and the live current version hold NULL');
  t.same(nullLiveRows(store), liveCurrent(store), 'NULL for exactly the current live version of each resource');
  const current = store.db.prepare("SELECT json FROM resource_current WHERE id = 'p1'").pluck().get();
  t.equal(current, written[4], 'the current row holds the latest JSON');

  // Superseding the re-created version archives only that version: the deletion's row keeps NULL.
  const sixth = r.write(patient('p1', 'Six')).json;
  t.same(historyRows(store).filter((row) => row.id === 'p1').map((row) => row.json), [written[0], written[1], written[2], null, written[4], null]);
  t.same([4, 5, 6].map((v) => r.version('Patient', 'p1', v)?.json), [null, written[4], sixth]);
});

t.test('a session layer over base: base rows keep NULL and still read as base JSON; the session rows follow the same rule', async (t) => {
  const { store, repo } = setUp(t);
  const base = repo(BASE_LAYER);
  const baseJson = base.write(patient('p1', 'Base')).json;
  const baseOnly = base.write(patient('b2', 'BaseOnly')).json;
  const x = repo('x');
  const written = [baseJson];
  written.push(x.write(patient('p1', 'X2')).json);
  written.push(x.write(patient('p1', 'X3')).json);
  x.remove('Patient', 'p1');
  written.push(null);
  written.push(x.write(patient('p1', 'X5')).json);
  x.remove('Patient', 'b2');

  const row = (sandbox: string, id: string, version: number) =>
    historyRows(store).find((r) => r.sandbox === sandbox && r.id === id && r.version === version);
  t.equal(row(BASE_LAYER, 'p1', 1)?.json, null, 'base\'s history row stays NULL: the session never writes into base');
  t.equal(row(BASE_LAYER, 'b2', 1)?.json, null, 'a session deletion of a base resource leaves base\'s row alone');
  t.equal(base.version('Patient', 'p1', 1)?.json, baseJson, 'base reads its own version');
  t.equal(x.version('Patient', 'p1', 1)?.json, baseJson, 'the session reads the base version through the layers');
  t.equal(x.version('Patient', 'b2', 1)?.json, baseOnly);
  t.equal(family(base.current('Patient', 'p1')?.json), 'Base', 'base current unchanged');

  for (let v = 1; v <= 5; v++) t.equal(x.version('Patient', 'p1', v)?.json, written[v - 1], `session vread of version ${v}`);
  const instance = x.history({ type: 'Patient', id: 'p1', count: 10, offset: 0 }).versions;
  t.same(instance.map((v) => `${v.sandbox}/${v.version}`), ['x/5', 'x/4', 'x/3', 'x/2', `${BASE_LAYER}/1`]);
  t.same(instance.map((v) => v.json), [...written].reverse(), 'session instance history bodies, base version included');
  t.same(historyRows(store).filter((r) => r.sandbox === 'x' && r.id === 'p1').map((r) => r.json), [written[1], written[2], null, null],
    'session rows: superseded versions archived, deletion and live current NULL');
  t.same(nullLiveRows(store), liveCurrent(store), 'NULL for exactly the current live version in each layer');
  t.same(base.history({ count: 10, offset: 0 }).versions.map((v) => v.json), [baseOnly, baseJson], 'base history bodies');
});

t.test('databases written with JSON in both tables read and update unchanged', async (t) => {
  const { store, repo } = setUp(t);
  const r = repo('default');
  const v1 = r.write(patient('p1', 'One')).json;
  const v2 = r.write(patient('p1', 'Two')).json;
  // The earlier layout: every history row held its JSON too.
  store.db.exec(`UPDATE resource_history SET json = (SELECT c.json FROM resource_current c WHERE c.sandbox = resource_history.sandbox
    AND c.type = resource_history.type AND c.id = resource_history.id AND c.version = resource_history.version) WHERE json IS NULL`);
  t.same(historyRows(store).map((row) => row.json), [v1, v2]);
  t.same(r.history({ id: 'p1', count: 10, offset: 0 }).versions.map((v) => v.json), [v2, v1]);
  const v3 = r.write(patient('p1', 'Three')).json;
  t.same([1, 2, 3].map((v) => r.version('Patient', 'p1', v)?.json), [v1, v2, v3]);
  t.same(historyRows(store).map((row) => row.json), [v1, v2, null], 'new writes use the single-copy layout');
});

t.test('the archive copy is part of the write: a failed write leaves the superseded row as it was', async (t) => {
  let fail = false;
  const indexer: ResourceIndexer = {
    schema: '',
    write() {
      if (fail) throw new Error('indexer failed');
    },
    clearSandbox() {},
  };
  const { store, repo } = setUp(t, [indexer]);
  const r = repo('default');
  const v1 = r.write(patient('p1', 'One')).json;
  fail = true;
  t.throws(() => r.write(patient('p1', 'Two')), /indexer failed/);
  t.throws(() => r.remove('Patient', 'p1'), /indexer failed/);
  fail = false;
  t.same(historyRows(store).map((row) => [row.version, row.json]), [[1, null]], 'no new row and no archived copy');
  t.equal(r.version('Patient', 'p1', 1)?.json, v1);

  // Several versions of one resource inside one transaction (a transaction Bundle) each keep their own JSON.
  const written = r.transaction(() => [r.write(patient('p1', 'Two')).json, r.write(patient('p1', 'Three')).json]);
  t.same([1, 2, 3].map((v) => r.version('Patient', 'p1', v)?.json), [v1, ...written]);
  t.same(historyRows(store).map((row) => row.json), [v1, written[0], null]);
});

t.test('HTTP: vread and instance/type/system history of every version after create, update, update, delete, re-create', async (t) => {
  const { app, context } = injectApp(t, { clock: virtualClock(START) });
  const put = (body: object) => app.inject({ method: 'PUT', url: '/fhir/Patient/p1', headers: JSON_HEADERS, payload: body });
  const bodies: (Patient | null)[] = [];
  const created = await app.inject({ method: 'POST', url: '/fhir/Patient', headers: JSON_HEADERS, payload: patientBody({ gender: 'female' }) });
  t.equal(created.statusCode, 201);
  const id = bodyOf<Patient>(created).id!;
  bodies.push(bodyOf<Patient>(created));
  const url = `/fhir/Patient/${id}`;
  for (const gender of ['male', 'other']) {
    const res = await app.inject({ method: 'PUT', url, headers: JSON_HEADERS, payload: patientBody({ id, gender }) });
    t.equal(res.statusCode, 200);
    bodies.push(bodyOf<Patient>(res));
  }
  t.equal((await app.inject({ method: 'DELETE', url })).statusCode, 200);
  bodies.push(null);
  const recreated = await app.inject({ method: 'PUT', url, headers: JSON_HEADERS, payload: patientBody({ id, gender: 'unknown' }) });
  t.equal(recreated.statusCode, 201, 're-create after delete');
  bodies.push(bodyOf<Patient>(recreated));
  await put(patientBody({ id: 'p1' }));

  for (let v = 1; v <= 5; v++) {
    const res = await app.inject({ url: `${url}/_history/${v}` });
    if (v === 4) {
      t.equal(res.statusCode, 410, 'the deletion reads as gone');
      continue;
    }
    t.equal(res.statusCode, 200);
    t.same(bodyOf<Patient>(res), bodies[v - 1], `vread ${v} returns version ${v}, not the latest`);
  }
  const history = async (path: string) => bodyOf<Bundle>(await app.inject({ url: path })).entry!
    .filter((e) => e.fullUrl?.endsWith(`/Patient/${id}`)).map((e) => e.resource ?? null);
  const expected = [...bodies].reverse();
  t.same(await history(`${url}/_history`), expected, 'instance history bodies');
  t.same(await history('/fhir/Patient/_history'), expected, 'type history bodies');
  t.same(await history('/fhir/_history'), expected, 'system history bodies');

  const store = context.store;
  t.same(nullLiveRows(store), liveCurrent(store), 'NULL for exactly the current live version of each resource');
  t.same(liveCurrent(store).sort(), [`default/Patient/${id}/5`, 'default/Patient/p1/1']);
});
