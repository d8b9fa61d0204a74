// Ingest rate of the seed generator's resources through Repository.write with and without the search indexer
// (issue 3: >= 20k resources/s with indexing). `tsx bench/search-ingest.ts [patients]`.
import { rmSync } from 'node:fs';
import type { Resource } from '@medplum/fhirtypes';
import { Store } from '../resources/storage/store.ts';
import { Repository } from '../resources/storage/repository.ts';
import { makeSandbox } from '../resources/storage/sandbox.ts';
import { createSearchIndexer } from '../resources/search/index.ts';
import { generatePopulation } from '../seed/generate.ts';

export function seedResources(patients: number, seed = 1): (Resource & { id: string })[] {
  const out: (Resource & { id: string })[] = [];
  for (const batch of generatePopulation({ patients, seed })) out.push(...(batch.resources as (Resource & { id: string })[]));
  return out;
}

/** Resources per second writing `resources` into a fresh in-memory store's base layer in one transaction. */
export function ingestRate(resources: (Resource & { id: string })[], indexed: boolean): { rate: number; cpuRate: number; store: Store } {
  const indexer = createSearchIndexer();
  const path = process.env.INGEST_DB ?? ':memory:';
  if (path !== ':memory:') for (const f of [path, path + '-wal', path + '-shm']) rmSync(f, { force: true });
  const store = new Store({ path, indexers: indexed ? [indexer] : [] });
  const repo = new Repository(store, makeSandbox('base'));
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  store.transaction(() => { for (const r of resources) repo.write(r); });
  const cpu = process.cpuUsage(c0);
  const seconds = (performance.now() - t0) / 1000;
  // CPU time as well as wall time: on a shared, loaded machine wall time overstates the cost.
  return { rate: resources.length / seconds, cpuRate: resources.length / ((cpu.user + cpu.system) / 1e6), store };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const patients = Number(process.argv[2] ?? 40);
  const t = performance.now();
  const resources = seedResources(patients);
  console.log(`generated ${resources.length} resources for ${patients} patients in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const counts = new Map<string, number>();
  for (const r of resources) counts.set(r.resourceType, (counts.get(r.resourceType) ?? 0) + 1);
  console.log([...counts].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', '));
  createSearchIndexer(); // registry compiled outside the timings
  const mode = process.env.MODE ?? 'both';
  if (mode !== 'indexed') { const a = ingestRate(resources, false); console.log(`unindexed: ${Math.round(a.rate)} resources/s wall, ${Math.round(a.cpuRate)} per CPU-second`); a.store.close(); }
  if (mode !== 'plain') {
    const b = ingestRate(resources, true);
    console.log(`indexed:   ${Math.round(b.rate)} resources/s wall, ${Math.round(b.cpuRate)} per CPU-second`);
    if (process.env.ROWS) {
      for (const t of ['search_string', 'search_token', 'search_date', 'search_reference', 'search_quantity', 'search_number', 'search_uri', 'search_composite', 'search_text_owner']) {
        console.log(t, (b.store.db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n);
      }
    }
    b.store.close();
  }
}
