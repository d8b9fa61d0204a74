// Sandbox visibility (ARCHITECTURE.md "Storage and sandboxes"): a sandbox sees its own rows and the base rows it has
// not shadowed; an updated base resource matches on its new values only, a deleted one not at all.
import t from 'tap';
import type { Resource } from '@medplum/fhirtypes';
import { Store } from '../../../resources/storage/store.ts';
import { Repository } from '../../../resources/storage/repository.ts';
import { makeSandbox } from '../../../resources/storage/sandbox.ts';
import { createSearchService } from '../../../resources/search/index.ts';
import { sharedTerminology } from '../../../resources/terminology/index.ts';

t.test('search in a sandbox over base rows', async (t) => {
  const search = createSearchService(sharedTerminology());
  const store = new Store({ path: ':memory:', indexers: [search.indexer] });
  t.teardown(() => store.close());
  const base = new Repository(store, makeSandbox('base'));
  const s1 = new Repository(store, makeSandbox('s1'));
  const pat = (id: string, family: string) => ({ resourceType: 'Patient', id, name: [{ family }] }) as Resource & { id: string };
  for (const p of [pat('a', 'Smith'), pat('b', 'Smith'), pat('c', 'Jones')]) base.write(p);
  base.write({ resourceType: 'Observation', id: 'o', status: 'final', code: { text: 'x' }, subject: { reference: 'Patient/b' } } as Resource & { id: string });

  s1.write(pat('a', 'Brown'));
  s1.remove('Patient', 'b');
  s1.write(pat('d', 'Smith'));

  const ids = (repo: Repository, q: [string, string][]) => search.match(repo, 'Patient', q);
  t.same(ids(s1, [['family', 'smith']]), ['d'], 'a no longer matches its old name, b is deleted');
  t.same(ids(s1, [['family', 'brown']]), ['a'], 'a matches its new name');
  t.same(ids(s1, [['family', 'jones']]), ['c'], 'untouched base rows are visible');
  t.same(ids(base, [['family', 'smith']]), ['a', 'b'], 'the base is unchanged');
  t.same(ids(s1, [['_has:Observation:subject:status', 'final']]), [], 'reverse chain to a deleted patient');
  t.same(ids(base, [['_has:Observation:subject:status', 'final']]), ['b']);

  const bundle = search.search({ repo: s1, baseUrl: 'http://x/fhir', strict: false, path: 'Patient' }, 'Patient', [['_sort', '_id']]);
  t.same(bundle.entry!.map((e) => `${e.resource!.id}:${(e.resource as { name: { family: string }[] }).name[0].family}`), ['a:Brown', 'c:Jones', 'd:Smith']);
  t.equal(bundle.total, 3);

  store.clearSandbox('s1');
  t.same(ids(s1, [['family', 'smith']]), ['a', 'b'], 'after a reset the sandbox sees the base again');
});

t.test('match() is strict', async (t) => {
  const search = createSearchService(sharedTerminology());
  const store = new Store({ path: ':memory:', indexers: [search.indexer] });
  t.teardown(() => store.close());
  const repo = new Repository(store, makeSandbox('default'));
  let status = 0;
  try { search.match(repo, 'Patient', [['nonsense', '1']]); } catch (e) { status = (e as { status: number }).status; }
  t.equal(status, 400);
});
