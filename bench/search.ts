// Search benchmark (issue 3 section 5): ingest rate with indexing, then in-process p50/p95 latency of typical
// clinical queries on two population sizes, and the growth ratio between them. Population: the generated
// stand-in of bench/search-population.ts (sizes from BENCH_SEARCH_PATIENTS, default "200,2000").
import { Store } from '../resources/storage/store.ts';
import { Repository } from '../resources/storage/repository.ts';
import { makeSandbox } from '../resources/storage/sandbox.ts';
import { createSearchService } from '../resources/search/index.ts';
import { parseQueryString } from '../server/fhir-request.ts';
import { population } from './search-population.ts';

const QUERIES: [label: string, type: string, query: (n: number) => string][] = [
  ['Observation?patient=X&code=Y', 'Observation', (n) => `patient=pat-${n >> 1}&code=http://loinc.org|2823-3`],
  ['... &date=ge&_sort=-date', 'Observation', (n) => `patient=pat-${n >> 1}&code=2823-3&date=ge2023-03-01&_sort=-date`],
  ['Patient?name=', 'Patient', () => 'name=kowal'],
  ['Patient?identifier=', 'Patient', (n) => `identifier=urn:oid:ehr-gym:mrn|MRN${100000 + (n >> 1)}`],
  ['Condition?code=', 'Condition', () => 'code=http://snomed.info/sct|195967001&_count=50'],
  ['MedicationRequest?patient=X&status=active', 'MedicationRequest', (n) => `patient=pat-${n >> 1}&status=active`],
  ['_include', 'MedicationRequest', (n) => `patient=pat-${n >> 1}&_include=MedicationRequest:requester`],
  ['_has', 'Patient', (n) => `_id=pat-${n >> 1},pat-1&_has:Condition:subject:code=38341003`],
  ['chain', 'Observation', (n) => `subject:Patient.identifier=MRN${100000 + (n >> 1)}&code=2345-7`],
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

export async function benchSearch(): Promise<string> {
  const sizes = (process.env.BENCH_SEARCH_PATIENTS ?? '200,2000').split(',').map(Number);
  const results = new Map<number, { ingest: number; resources: number; lat: Map<string, [number, number]> }>();
  for (const n of sizes) {
    const search = createSearchService();
    const store = new Store({ path: ':memory:', indexers: [search.indexer] });
    const repo = new Repository(store, makeSandbox('base'));
    const resources = [...population(n)];
    const t0 = performance.now();
    store.transaction(() => { for (const r of resources) repo.write(r); });
    const ingest = resources.length / ((performance.now() - t0) / 1000);
    store.db.exec('ANALYZE');
    const ctx = { repo, baseUrl: 'http://localhost/fhir', strict: false, path: '' };
    const lat = new Map<string, [number, number]>();
    for (const [label, type, q] of QUERIES) {
      const query = parseQueryString(q(n));
      const times: number[] = [];
      for (let i = 0; i < 60; i++) {
        const s = performance.now();
        search.search({ ...ctx, path: type }, type, query);
        if (i >= 10) times.push(performance.now() - s);
      }
      times.sort((a, b) => a - b);
      lat.set(label, [percentile(times, 0.5), percentile(times, 0.95)]);
    }
    const everything: number[] = [];
    for (let i = 0; i < 30; i++) {
      const s = performance.now();
      search.everything({ ...ctx, path: 'Patient/x/$everything' }, `pat-${n >> 1}`, []);
      if (i >= 5) everything.push(performance.now() - s);
    }
    everything.sort((a, b) => a - b);
    lat.set('Patient/X/$everything', [percentile(everything, 0.5), percentile(everything, 0.95)]);
    results.set(n, { ingest, resources: resources.length, lat });
    store.close();
  }
  const [small, large] = sizes;
  const lines = [
    `| query | p50 ms (${small} pts) | p95 ms (${small}) | p50 ms (${large} pts) | p95 ms (${large}) | growth p50 ${large}/${small} |`,
    '|---|---|---|---|---|---|',
  ];
  for (const label of results.get(small)!.lat.keys()) {
    const a = results.get(small)!.lat.get(label)!;
    const b = results.get(large)?.lat.get(label) ?? [NaN, NaN];
    lines.push(`| ${label} | ${a[0].toFixed(2)} | ${a[1].toFixed(2)} | ${b[0].toFixed(2)} | ${b[1].toFixed(2)} | ${(b[0] / a[0]).toFixed(2)} |`);
  }
  for (const [n, r] of results) lines.push(`\nIngest with indexing, ${n} patients (${r.resources} resources): ${Math.round(r.ingest)} resources/s`);
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchSearch().then((table) => console.log(table));
}
