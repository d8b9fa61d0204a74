// Repository over the SQLite Store: versions, tombstones, sandbox layers over the shared base (copy-on-write),
// history, atomic writes and transactions, WAL on file databases.
import t, { type Test } from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Patient, Resource } from '@medplum/fhirtypes';
import { Store, type ResourceIndexer } from '../../../resources/storage/store.ts';
import { Repository } from '../../../resources/storage/repository.ts';
import { BASE_LAYER, makeSandbox, virtualClock } from '../../../resources/storage/sandbox.ts';
import { FhirError } from '../../../resources/outcome.ts';

const START = new Date('2024-05-01T00:00:00.000Z');
const patient = (id: string, extra: Partial<Patient> = {}) => ({ resourceType: 'Patient', id, ...extra }) as Patient & { id: string };

function setUp(t: Test, indexers: ResourceIndexer[] = []) {
  const store = new Store({ path: ':memory:', indexers });
  t.teardown(() => store.close());
  const clock = virtualClock(START);
  const repo = (name: string, writable = true) => new Repository(store, makeSandbox(name, { clock, writable }));
  return { store, base: repo(BASE_LAYER), sandbox: repo('default'), repo };
}

t.test('write assigns increasing versions and meta; current and version read them back', async (t) => {
  const { sandbox } = setUp(t);
  const v1 = sandbox.write(patient('p1', { gender: 'male', meta: { versionId: '99', source: 'kept' } }));
  t.equal(v1.version, 1);
  const v2 = sandbox.write(patient('p1', { gender: 'female' }));
  t.equal(v2.version, 2);
  t.ok(v2.lastUpdated > v1.lastUpdated, 'lastUpdated increases');
  const stored1 = JSON.parse(v1.json!) as Patient;
  t.same(stored1.meta, { source: 'kept', versionId: '1', lastUpdated: v1.lastUpdated }, 'meta.versionId is the server\'s');
  t.same(Object.keys(stored1).slice(0, 3), ['resourceType', 'id', 'meta']);
  t.equal(sandbox.current('Patient', 'p1')?.version, 2);
  t.equal((sandbox.readLive('Patient', 'p1') as Patient).gender, 'female');
  t.equal((JSON.parse(sandbox.version('Patient', 'p1', 1)!.json!) as Patient).gender, 'male', 'old versions kept');
  t.equal(sandbox.version('Patient', 'p1', 3), undefined);
  t.equal(sandbox.current('Patient', 'nope'), undefined);
  t.equal(sandbox.current('Observation', 'p1'), undefined, 'ids are per type');
});

t.test('remove writes a tombstone version; history and old versions survive', async (t) => {
  const { sandbox } = setUp(t);
  sandbox.write(patient('p1'));
  const tombstone = sandbox.remove('Patient', 'p1');
  t.equal(tombstone?.version, 2);
  t.equal(tombstone?.deleted, true);
  t.equal(sandbox.exists('Patient', 'p1'), false);
  t.equal(sandbox.readLive('Patient', 'p1'), undefined);
  t.equal(sandbox.current('Patient', 'p1')?.deleted, true, 'current shows the deletion');
  t.ok(sandbox.version('Patient', 'p1', 1)?.json, 'version 1 is still there');
  t.equal(sandbox.remove('Patient', 'p1'), undefined, 'nothing live to delete');
  t.equal(sandbox.remove('Patient', 'never'), undefined);
  t.equal(sandbox.write(patient('p1')).version, 3, 'a write after delete continues the versions');
});

t.test('sandbox layers: base is visible until shadowed; versions continue across layers', async (t) => {
  const { store, base, sandbox, repo } = setUp(t);
  base.write(patient('shared', { gender: 'male' }));
  base.write(patient('shared', { gender: 'male', active: true }));
  base.write(patient('other'));
  const other = repo('session-2');

  t.equal(sandbox.current('Patient', 'shared')?.version, 2, 'the sandbox sees base');
  const own = sandbox.write(patient('shared', { gender: 'female' }));
  t.equal(own.version, 3, 'the overlay continues base\'s versions');
  t.equal(own.sandbox, 'default');
  t.equal((sandbox.readLive('Patient', 'shared') as Patient).gender, 'female', 'the overlay wins');
  t.equal((base.readLive('Patient', 'shared') as Patient).gender, 'male', 'base is untouched');
  t.equal((other.readLive('Patient', 'shared') as Patient).gender, 'male', 'another sandbox still sees base');
  t.ok(sandbox.version('Patient', 'shared', 1), 'base versions are readable through the sandbox');

  sandbox.remove('Patient', 'other');
  t.equal(sandbox.exists('Patient', 'other'), false, 'a tombstone shadows the base row');
  t.equal(base.exists('Patient', 'other'), true);
  t.equal(other.exists('Patient', 'other'), true);
  t.same([...sandbox.scan('Patient')].map((p) => p.id).sort(), ['shared']);
  t.same([...other.scan('Patient')].map((p) => p.id).sort(), ['other', 'shared']);

  t.equal(store.countIn('default'), 2, 'the overlay holds only its own writes');
  store.clearSandbox('default');
  t.equal(store.countIn('default'), 0);
  t.equal((sandbox.readLive('Patient', 'shared') as Patient).gender, 'male', 'after reset base shows through again');
  t.equal(sandbox.exists('Patient', 'other'), true);
  t.equal(store.countIn(BASE_LAYER), 2);
});

t.test('history: newest first, filters, paging, across layers', async (t) => {
  const { base, sandbox } = setUp(t);
  base.write(patient('b1'));
  sandbox.write(patient('p1'));
  sandbox.write(patient('p1', { active: true }));
  const third = sandbox.write({ resourceType: 'Observation', id: 'o1', status: 'final', code: { text: 'x' } } as Resource & { id: string });
  sandbox.remove('Patient', 'p1');

  const all = sandbox.history({ count: 10, offset: 0 });
  t.equal(all.total, 5, 'base versions are part of the sandbox\'s history');
  t.same(all.versions.map((v) => `${v.type}/${v.id}/${v.version}${v.deleted ? 'x' : ''}`), ['Patient/p1/3x', 'Observation/o1/1', 'Patient/p1/2', 'Patient/p1/1', 'Patient/b1/1']);
  t.same(sandbox.history({ type: 'Patient', id: 'p1', count: 10, offset: 0 }).versions.map((v) => v.version), [3, 2, 1]);
  t.equal(sandbox.history({ type: 'Observation', count: 10, offset: 0 }).total, 1);
  t.same(sandbox.history({ since: third.lastUpdated, count: 10, offset: 0 }).versions.map((v) => v.version), [3, 1]);
  t.same(sandbox.history({ before: third.lastUpdated, count: 10, offset: 0 }).versions.map((v) => v.id), ['p1', 'p1', 'b1']);
  const page = sandbox.history({ count: 2, offset: 2 });
  t.equal(page.total, 5);
  t.same(page.versions.map((v) => v.version), [2, 1]);
  t.same(sandbox.history({ count: 10, offset: 1e20 }).versions, [], 'an offset past 2^53 is just past the end');
  t.equal(base.history({ count: 10, offset: 0 }).total, 1, 'base does not see sandbox writes');
});

t.test('a read-only sandbox refuses writes with 403', async (t) => {
  const { repo } = setUp(t);
  const readOnly = repo(BASE_LAYER, false);
  const statusOf = (fn: () => unknown) => {
    try {
      fn();
      return undefined;
    } catch (err) {
      return err instanceof FhirError ? err.status : -1;
    }
  };
  t.equal(statusOf(() => readOnly.write(patient('p1'))), 403);
  t.equal(statusOf(() => readOnly.remove('Patient', 'p1')), 403);
});

t.test('writes are atomic: a failing indexer leaves no version behind; transactions roll back together', async (t) => {
  let fail = false;
  const written: string[] = [];
  const indexer: ResourceIndexer = {
    schema: 'CREATE TABLE IF NOT EXISTS test_index (id TEXT)',
    write(db, _sandbox, _type, id) {
      db.prepare('INSERT INTO test_index (id) VALUES (?)').run(id);
      if (fail) throw new Error('indexer failed');
      written.push(id);
    },
    clearSandbox(db) {
      db.prepare('DELETE FROM test_index').run();
    },
  };
  const { store, sandbox } = setUp(t, [indexer]);
  sandbox.write(patient('ok'));
  fail = true;
  t.throws(() => sandbox.write(patient('broken')), /indexer failed/);
  fail = false;
  t.equal(sandbox.current('Patient', 'broken'), undefined, 'no current row');
  t.equal(sandbox.history({ id: 'broken', count: 10, offset: 0 }).total, 0, 'no history row');
  t.same(store.db.prepare('SELECT id FROM test_index').pluck().all(), ['ok'], 'no index row');

  t.throws(() => sandbox.transaction(() => {
    sandbox.write(patient('t1'));
    sandbox.write(patient('ok', { active: true }));
    throw new Error('entry 3 failed');
  }), /entry 3 failed/);
  t.equal(sandbox.current('Patient', 't1'), undefined, 'the whole transaction rolled back');
  t.equal(sandbox.current('Patient', 'ok')?.version, 1);
  t.same(store.db.prepare('SELECT id FROM test_index ORDER BY rowid').pluck().all(), ['ok']);

  sandbox.transaction(() => {
    sandbox.write(patient('t1'));
    sandbox.write(patient('t2'));
  });
  t.ok(sandbox.exists('Patient', 't1') && sandbox.exists('Patient', 't2'), 'a successful transaction commits both');
});

t.test('a file database uses WAL and keeps its data across reopen', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ehr-gym-store-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'test.sqlite');
  const first = new Store({ path });
  t.equal(first.db.pragma('journal_mode', { simple: true }), 'wal');
  new Repository(first, makeSandbox('default')).write(patient('p1'));
  first.close();
  const second = new Store({ path });
  t.teardown(() => second.close());
  t.equal(new Repository(second, makeSandbox('default')).current('Patient', 'p1')?.version, 1);
});
