// The soak benchmark's server process: what `ehr-gym serve` does (seed an empty database file, then serve it), plus
// the per-request time budget as an argument (the CLI has no flag for it), so the soak can compare budgets, and the
// number of read workers (`--read-workers`), so it can compare the pool on and off.
// Usage: tsx bench/soak-child.ts DB PATIENTS BUDGET_MS|default READ_WORKERS. Prints "server at http://HOST:PORT/fhir"
// once listening.
import { Store } from '../resources/storage/store.ts';
import { createSearchIndexer } from '../resources/search/index.ts';
import { ensureDefaultPopulation } from '../seed/index.ts';
import { serve, stopOnSignals } from '../server/main.ts';

const [db, patients, budget, readWorkers] = process.argv.slice(2);
const store = new Store({ path: db, indexers: [createSearchIndexer()] });
ensureDefaultPopulation(store, { patients: Number(patients), seed: 1, progress: false });
store.close();
const { app, address } = await serve({
  port: 0, host: '127.0.0.1', dbPath: db, logLevel: 'error',
  ...(budget !== 'default' ? { settings: { requestTimeBudgetMs: Number(budget) } } : {}),
  readPool: { workers: Number(readWorkers) },
});
stopOnSignals(app);
console.log(`ehr-gym soak server at ${address}/fhir`);
