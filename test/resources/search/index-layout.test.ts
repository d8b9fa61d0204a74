// The index layout: aliased parameters answered from other parameters' rows (same answers as if indexed), and a
// store written by an older layout re-indexed when it opens.
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Resource } from '@medplum/fhirtypes';
import { Store } from '../../../resources/storage/store.ts';
import { Repository } from '../../../resources/storage/repository.ts';
import { makeSandbox } from '../../../resources/storage/sandbox.ts';
import { createSearchIndexer, createSearchService } from '../../../resources/search/index.ts';
import { sharedTerminology } from '../../../resources/terminology/index.ts';
import { searchApp, observation, patient } from './fixtures.ts';

t.test('aliased parameters', async (t) => {
  const { idSet } = await searchApp(t, [
    patient('p1'),
    { resourceType: 'Group', id: 'p1', type: 'person', actual: true } as Resource,
    observation('on-patient', { subject: { reference: 'Patient/p1' } }),
    // Same id, other type: `subject=p1` matches it, `patient=p1` must not (patient = subject where it is a Patient).
    observation('on-group', { subject: { reference: 'Group/p1' } }),
    observation('panel', {
      code: { coding: [{ system: 'http://loinc.org', code: '85354-9' }] },
      component: [{ code: { coding: [{ system: 'http://loinc.org', code: '8480-6' }] }, valueQuantity: { value: 120, system: 'http://unitsofmeasure.org', code: 'mm[Hg]' } }],
    }),
    observation('plain', { code: { coding: [{ system: 'http://loinc.org', code: '8480-6' }] }, valueQuantity: { value: 150, system: 'http://unitsofmeasure.org', code: 'mm[Hg]' } }),
  ]);
  t.same(await idSet('Observation?subject=p1'), ['on-group', 'on-patient']);
  t.same(await idSet('Observation?patient=p1'), ['on-patient'], 'patient= only follows references to a Patient');
  t.same(await idSet('Observation?patient:missing=false'), ['on-patient']);
  t.same(await idSet('Observation?code=8480-6'), ['plain'], 'code does not look into components');
  t.same(await idSet('Observation?combo-code=8480-6'), ['panel', 'plain'], 'combo-code = code or component code');
  t.same(await idSet('Observation?component-code=8480-6'), ['panel']);
  t.same(await idSet('Observation?combo-code-value-quantity=8480-6$gt130'), ['plain']);
  t.same(await idSet('Observation?combo-code-value-quantity=8480-6$lt130'), ['panel']);
  t.same(await idSet('Observation?combo-value-quantity=120'), ['panel']);
  t.same(await idSet('Patient?_has:Observation:patient:code=2823-3'), ['p1']);
  t.same(await idSet('Observation?_id=on-patient,on-group&_include=Observation:patient'), ['on-group', 'on-patient']);
});

t.test('a store from an older index layout is re-indexed when it opens', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ehr-gym-index-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'db.sqlite');
  const first = new Store({ path, indexers: [createSearchIndexer()] });
  new Repository(first, makeSandbox('base')).write({ resourceType: 'Patient', id: 'a', name: [{ family: 'Okafor' }] } as Resource & { id: string });
  // Simulate an older layout: other index tables, no version marker.
  first.db.exec("DELETE FROM store_metadata WHERE key = 'search.index.version'; DROP TABLE search_string; CREATE TABLE search_string (sandbox TEXT, type TEXT, id TEXT, param TEXT, value TEXT, exact TEXT)");
  first.close();
  const search = createSearchService(sharedTerminology());
  const store = new Store({ path, indexers: [search.indexer] });
  t.teardown(() => store.close());
  t.same(search.match(new Repository(store, makeSandbox('default')), 'Patient', [['family', 'okafor']]), ['a']);
});
