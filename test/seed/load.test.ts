// Loading: the population reaches the store through Repository.write (the HTTP write path, so search index rows are
// written by the real indexer), is readable and searchable through the real server, and invalid input fails loudly.
import t from 'tap';
import type { Bundle, Observation, Patient, Resource } from '@medplum/fhirtypes';
import { Store } from '../../resources/storage/store.ts';
import { createSearchIndexer } from '../../resources/search/index.ts';
import { buildApp } from '../../server/app.ts';
import { seedPopulation, ensureDefaultPopulation, datasetMetadata, DATASET_CARD_KEY } from '../../seed/index.ts';
import { loadPopulation } from '../../seed/load.ts';
import { generatePopulation } from '../../seed/generate.ts';

const newStore = () => new Store({ path: ':memory:', indexers: [createSearchIndexer()] });

t.test('seedPopulation loads every resource into the base layer and records the dataset metadata', async (t) => {
  const store = newStore();
  t.teardown(() => store.close());
  const result = seedPopulation({ store, patients: 8, seed: 2, stats: true });
  t.equal(store.countIn('base'), result.metadata.resources + result.metadata.terminologyResources);
  t.equal(result.stats!.resources, result.metadata.resources);
  t.equal(result.stats!.patients, 8);
  const meta = datasetMetadata(store)!;
  t.equal(meta.seed, 2);
  t.equal(meta.referenceDate, '2025-06-30T09:00:00Z');
  t.equal(meta.clean, false);
  t.ok(meta.mess.localCodeBeside > 0, 'messiness rates recorded');
  t.match(store.getMetadata(DATASET_CARD_KEY), /# ehr-gym dataset card/);
  // Stored rows carry meta from the base layer's clock, which starts at the reference date.
  const row = store.currentIn('base', 'Patient', 's2-p0')!;
  t.equal(row.version, 1);
  t.ok(row.lastUpdated.startsWith('2025-06-30T09:00:00'), row.lastUpdated);
});

t.test('the served population is readable and searchable (index rows exist), by LOINC and by local code', async (t) => {
  const store = newStore();
  seedPopulation({ store, patients: 6, seed: 1 });
  const { app } = buildApp({ store });
  t.teardown(async () => { await app.close(); store.close(); });
  const patient = await app.inject({ method: 'GET', url: '/fhir/Patient/s1-p0' });
  t.equal(patient.statusCode, 200);
  const mrn = (JSON.parse(patient.body) as Patient).identifier![0];
  const byMrn = await app.inject({ method: 'GET', url: `/fhir/Patient?identifier=${encodeURIComponent(`${mrn.system}|${mrn.value}`)}` });
  t.equal((JSON.parse(byMrn.body) as Bundle).entry?.[0]?.resource?.id, 's1-p0', 'found by MRN through the search index');
  const generated: Resource[] = [];
  for (const b of generatePopulation({ patients: 6, seed: 1 })) generated.push(...b.resources);
  const vitals = generated.filter((r) => r.resourceType === 'Observation' && r.id!.startsWith('s1-p0-') && (r as Observation).category?.[0].coding?.[0].code === 'vital-signs');
  const search = await app.inject({ method: 'GET', url: '/fhir/Observation?patient=s1-p0&category=vital-signs&_count=5000' });
  t.equal(search.statusCode, 200);
  t.equal((JSON.parse(search.body) as Bundle).entry?.length ?? 0, vitals.length, 'every vital sign of the patient is found by category');
  const withLocal = generated.filter((r) => r.resourceType === 'Observation' && (r as Observation).code.coding?.some((c) => c.code === 'K' && c.system?.endsWith('/flowsheet')));
  t.ok(withLocal.length > 0, 'the population carries local K codes');
  const byLocal = await app.inject({ method: 'GET', url: '/fhir/Observation?code=K&_count=5000' });
  t.equal((JSON.parse(byLocal.body) as Bundle).entry?.length ?? 0, withLocal.length, 'found by the local flowsheet code');
  const write = await app.inject({ method: 'DELETE', url: '/fhir/Patient/s1-p0' });
  t.not(write.statusCode, 500);
});

t.test('an invalid resource fails the load loudly and writes nothing of its batch', async (t) => {
  const store = newStore();
  t.teardown(() => store.close());
  const bad = { resourceType: 'Observation', id: 'bad-1', status: 'final', code: { text: 'x' }, valueQuantity: { value: 'high' } } as unknown as Resource;
  const batches = [{ resources: [{ resourceType: 'Patient', id: 'ok-1' } as Resource, bad] }];
  t.throws(() => loadPopulation(store, batches, { referenceDate: '2025-06-30T09:00:00Z' }), { name: 'InvalidSeedResourceError', message: /Observation\/bad-1 is invalid: Observation.valueQuantity.value/ });
  t.equal(store.countIn('base'), 0);
});

t.test('ensureDefaultPopulation builds only into an empty base layer', async (t) => {
  const store = newStore();
  t.teardown(() => store.close());
  t.equal(ensureDefaultPopulation(store, { patients: 2, seed: 1, progress: false }), true);
  const count = store.countIn('base');
  t.ok(count > 100);
  t.equal(ensureDefaultPopulation(store, { patients: 2, seed: 1, progress: false }), false);
  t.equal(store.countIn('base'), count, 'nothing rebuilt or added');
});

t.test('ensureDefaultPopulation rebuilds a population indexed under another index schema, with its own settings', async (t) => {
  const store = newStore();
  t.teardown(() => store.close());
  seedPopulation({ store, patients: 2, seed: 9, clean: true });
  const meta = datasetMetadata(store)!;
  t.equal(ensureDefaultPopulation(store, { patients: 5, seed: 1, progress: false }), false, 'same schema: kept');
  store.setMetadata('dataset', JSON.stringify({ ...meta, indexSchema: 'stale' }));
  t.equal(ensureDefaultPopulation(store, { patients: 5, seed: 1, progress: false }), true, 'stale schema: rebuilt');
  const rebuilt = datasetMetadata(store)!;
  t.same([rebuilt.seed, rebuilt.patients, rebuilt.clean], [9, 2, true], 'the stored settings, not the defaults');
  t.equal(rebuilt.indexSchema, meta.indexSchema);
  t.equal(store.countIn('base'), rebuilt.resources + rebuilt.terminologyResources);
});

t.test('an interrupted build (marked building) is rebuilt on the next start', async (t) => {
  const store = newStore();
  t.teardown(() => store.close());
  seedPopulation({ store, patients: 2, seed: 1 });
  store.setMetadata('dataset', JSON.stringify({ building: true }));
  t.equal(datasetMetadata(store), undefined, 'no metadata while building');
  t.equal(ensureDefaultPopulation(store, { patients: 3, seed: 1, progress: false }), true);
  t.equal(datasetMetadata(store)!.patients, 3);
});

t.test('a failed load leaves no half population behind', async (t) => {
  const store = newStore();
  t.teardown(() => store.close());
  seedPopulation({ store, patients: 1, seed: 1 });
  t.throws(() => seedPopulation({ store, patients: 2, seed: 1, referenceDate: 'not a date' }));
  t.equal(store.countIn('base'), 0);
  t.equal(datasetMetadata(store), undefined);
});

t.test('seeding again replaces the base layer', async (t) => {
  const store = newStore();
  t.teardown(() => store.close());
  seedPopulation({ store, patients: 3, seed: 1 });
  const result = seedPopulation({ store, patients: 2, seed: 5, clean: true });
  t.equal(store.countIn('base'), result.metadata.resources + result.metadata.terminologyResources);
  t.equal(store.currentIn('base', 'Patient', 's1-p0'), undefined);
  t.ok(store.currentIn('base', 'Patient', 's5-p0'));
  t.equal(datasetMetadata(store)!.clean, true);
});

t.test('the terminology the charts use is in the base layer as searchable CodeSystem, ValueSet and ConceptMap resources', async (t) => {
  const store = newStore();
  const { app } = buildApp({ store });
  t.teardown(async () => { await app.close(); store.close(); });
  const result = seedPopulation({ store, patients: 2, seed: 3 });
  t.ok(result.metadata.terminologyResources > 1000, `${result.metadata.terminologyResources} terminology resources`);
  const search = async (url: string) => JSON.parse((await app.inject({ method: 'GET', url })).body) as Bundle;
  const loinc = await search('/fhir/CodeSystem?url=http://loinc.org');
  t.equal(loinc.total, 1, 'LOINC is one CodeSystem, found by its url');
  const concept = (loinc.entry?.[0].resource as { concept?: { code: string }[] } | undefined)?.concept ?? [];
  t.ok(concept.some((c) => c.code === '2823-3'), 'and holds the potassium code the labs use');
  t.ok(((await search('/fhir/ConceptMap?_summary=count')).total ?? 0) > 0, 'concept maps are stored');
  t.ok(((await search('/fhir/ValueSet?_summary=count')).total ?? 0) > 600, 'HL7 value sets are stored');
});
