// The bulk load (worker thread + multi-row inserts + deferred secondary indexes) must write exactly what the
// reference path (one Repository.write per resource, the HTTP write path) writes: the same resource rows, history
// rows, index rows and full-text entries, byte for byte, and the same schema once it has finished.
import t, { type Test } from 'tap';
import type Database from 'better-sqlite3';
import type { Resource } from '@medplum/fhirtypes';
import { Store } from '../../resources/storage/store.ts';
import { createSearchIndexer } from '../../resources/search/index.ts';
import { INDEX_TABLES } from '../../resources/search/index-tables.ts';
import { sharedTerminology, terminologyResources } from '../../resources/terminology/index.ts';
import { seedPopulation, DEFAULT_REFERENCE_DATE } from '../../seed/index.ts';
import { loadPopulation } from '../../seed/load.ts';
import { bulkLoadPopulation } from '../../seed/bulk-load.ts';
import { BulkLoader, bulkIndexers } from '../../resources/storage/bulk.ts';
import { createIndexer } from '../../resources/search/indexer.ts';
import { SearchParameterRegistry, loadDefinitions } from '../../resources/search/registry.ts';
import { generatePopulation } from '../../seed/generate.ts';

const newStore = () => new Store({ path: ':memory:', indexers: [createSearchIndexer()] });

/**
 * Every row that matters, in a stable order: resources, history, index tables, search keys, schema, and the full-text
 * index as per-term, per-column document counts plus the exact documents of a sample of terms (every posting of the
 * terminology's long texts would take seconds to list).
 */
function dump(db: Database.Database): Record<string, unknown[]> {
  const all = (sql: string, ...params: unknown[]) => db.prepare(sql).raw().all(...params);
  db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.text_terms USING fts5vocab(main, search_text, col)');
  const terms = all('SELECT term, col, doc, cnt FROM temp.text_terms ORDER BY term, col');
  const sample = terms.filter((_, i) => i % 97 === 0).map((r) => (r as string[])[0]);
  const out: Record<string, unknown[]> = {
    resource_current: all('SELECT rowid, * FROM resource_current ORDER BY rowid'),
    resource_history: all('SELECT rowid, * FROM resource_history ORDER BY rowid'),
    search_param: all('SELECT * FROM search_param ORDER BY key'),
    search_text_terms: terms,
    search_text_docs: sample.map((term) => [term, all('SELECT rowid FROM search_text WHERE search_text MATCH ? ORDER BY rowid', `"${term.replace(/"/g, '""')}"`).flat()]),
    schema: all("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'search_text_%' ORDER BY name"),
  };
  for (const table of INDEX_TABLES) out[table] = all(`SELECT * FROM ${table} ORDER BY rid, param, seq`);
  return out;
}

t.test('a bulk load writes exactly the rows and index entries of the Repository.write path', async (t) => {
  const reference = newStore();
  const bulk = newStore();
  t.teardown(() => { reference.close(); bulk.close(); });
  const population = { patients: 5, seed: 3 };
  loadPopulation(reference, generatePopulation(population), { referenceDate: DEFAULT_REFERENCE_DATE });
  loadPopulation(reference, [{ resources: [...terminologyResources(sharedTerminology())] }], { referenceDate: DEFAULT_REFERENCE_DATE });
  seedPopulation({ store: bulk, ...population });
  const expected = dump(reference.db);
  const actual = dump(bulk.db);
  t.ok(expected.resource_current.length > 1000, `a real population (${expected.resource_current.length} resources)`);
  t.ok(expected.search_token.length > expected.resource_current.length, 'with index rows');
  t.ok(expected.search_text_terms.length > 1000, 'and full-text terms');
  for (const key of Object.keys(expected)) sameRows(t, key, actual[key], expected[key]);
});

/** Row lists compared as JSON text (tap's deep equality is too slow for ~10^5 rows); the first difference is shown. */
function sameRows(t: Test, name: string, actual: unknown[], expected: unknown[]): void {
  t.equal(actual.length, expected.length, `${name}: same number of rows`);
  const a = actual.map((r) => JSON.stringify(r));
  const e = expected.map((r) => JSON.stringify(r));
  const first = e.findIndex((row, i) => a[i] !== row);
  t.equal(first, -1, `${name}: same rows`);
  if (first >= 0) t.same(actual[first], expected[first], `${name}: first differing row (#${first})`);
}

t.test('a bulk load into a layer that has rows fails on the first duplicate and leaves the schema whole', async (t) => {
  const store = newStore();
  t.teardown(() => store.close());
  const indexes = () => store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name").pluck().all();
  const before = indexes();
  t.ok(before.includes('search_token_code'), 'secondary indexes exist before');
  const patient = { resourceType: 'Patient', id: 'dup', gender: 'female' } as Resource;
  t.throws(() => bulkLoadPopulation(store, { patients: 1, seed: 1 }, { referenceDate: DEFAULT_REFERENCE_DATE, extra: [patient, { ...patient }] }), /UNIQUE constraint failed/);
  t.same(indexes(), before, 'the dropped secondary indexes were rebuilt');
});

t.test('an invalid resource fails a bulk load with InvalidSeedResourceError', async (t) => {
  const store = newStore();
  t.teardown(() => store.close());
  const bad = { resourceType: 'Observation', id: 'bad-1', status: 'final', code: { text: 'x' }, valueQuantity: { value: 'high' } } as unknown as Resource;
  t.throws(() => bulkLoadPopulation(store, { patients: 1, seed: 1 }, { referenceDate: DEFAULT_REFERENCE_DATE, extra: [bad] }),
    { name: 'InvalidSeedResourceError', message: /Observation\/bad-1 is invalid/ });
});

t.test('seeding the same population twice gives identical databases (worker timing does not leak into the rows)', async (t) => {
  const a = newStore();
  const b = newStore();
  t.teardown(() => { a.close(); b.close(); });
  seedPopulation({ store: a, patients: 4, seed: 7 });
  seedPopulation({ store: b, patients: 4, seed: 7 });
  const expected = dump(a.db);
  const actual = dump(b.db);
  for (const key of Object.keys(expected)) sameRows(t, key, actual[key], expected[key]);
});

t.test('a bulk load drops only plain secondary indexes, and only until it finishes', async (t) => {
  const store = newStore();
  t.teardown(() => store.close());
  store.db.exec('CREATE TABLE extra (x TEXT); CREATE UNIQUE INDEX extra_x ON extra (x)');
  const indexes = () => store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").pluck().all() as string[];
  const before = indexes();
  const loader = new BulkLoader(store, 'base');
  loader.begin();
  const during = indexes();
  t.ok(during.includes('extra_x'), 'a unique index keeps refusing duplicates during the load');
  t.notOk(during.includes('search_token_code'), 'plain secondary indexes are dropped');
  t.notOk(during.includes('resource_history_time'));
  loader.finish();
  t.same(indexes(), before, 'and rebuilt at the end');
});

t.test('only an indexer over the shipped registry offers the bulk path (a worker can rebuild only that one)', async (t) => {
  t.ok((createSearchIndexer() as { bulk?: unknown }).bulk, 'the default search indexer has a bulk path');
  const custom = createIndexer(new SearchParameterRegistry(loadDefinitions()));
  t.equal(custom.bulk, undefined, 'an indexer over another registry object has none');
  const store = new Store({ path: ':memory:', indexers: [custom] });
  t.teardown(() => store.close());
  t.equal(bulkIndexers(store), undefined, 'so seeding that store takes the Repository.write path');
  const result = seedPopulation({ store, patients: 1, seed: 1 });
  t.equal(store.countIn('base'), result.metadata.resources + result.metadata.terminologyResources, 'and still loads everything');
});
