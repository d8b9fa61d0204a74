// The synthetic population: generate (streaming, deterministic), validate, load into the base layer, write NDJSON,
// and describe the result in the dataset metadata and card.
import { createHash } from 'node:crypto';
import { SingleBar, Presets } from 'cli-progress';
import type { Store } from '../resources/storage/store.ts';
import { BASE_LAYER } from '../resources/storage/sandbox.ts';
import { generatePopulation, type GeneratedBatch, type PopulationOptions } from './generate.ts';
import { assertValid, loadPopulation } from './load.ts';
import { bulkLoadPopulation } from './bulk-load.ts';
import { bulkIndexers } from '../resources/storage/bulk.ts';
import { DEFAULT_MESS, NO_MESS, type MessRates } from './mess.ts';
import { MODULES } from './modules/index.ts';
import { NdjsonWriter } from './ndjson.ts';
import { PLANTED_ERRORS, PLANTED_ERROR_SYSTEM } from './coherence.ts';
import { StatsCollector, datasetCard, type DatasetStats } from './stats.ts';
import { DEFAULT_REFERENCE_DATE } from './time.ts';
import { sharedTerminology, terminologyResources } from '../resources/terminology/index.ts';

export { generatePopulation, generatePatient, type GeneratedBatch, type PatientSummary } from './generate.ts';
export { loadPopulation, baseRepository } from './load.ts';
export { DEFAULT_MESS, NO_MESS, type MessRates } from './mess.ts';
export { DEFAULT_REFERENCE_DATE } from './time.ts';

/** Metadata keys written to the store. */
export const DATASET_METADATA_KEY = 'dataset';
export const DATASET_CARD_KEY = 'dataset.card';

export interface SeedOptions {
  patients: number;
  seed: number;
  referenceDate?: string;
  /** Turn the messy-EHR realism off. */
  clean?: boolean;
  /** Load into this store's base layer (replacing what it held). */
  store?: Store;
  /** Also write Bulk Data NDJSON here. */
  ndjsonDir?: string;
  /** Collect the dataset card. */
  stats?: boolean;
  /** Show a progress bar on stderr. */
  progress?: boolean;
}

export interface DatasetMetadata {
  generator: 'ehr-gym seed';
  formatVersion: 1;
  seed: number;
  patients: number;
  referenceDate: string;
  clean: boolean;
  mess: MessRates;
  /**
   * Deliberate errors are labelled: a resource carrying a meta.tag of this system is a planted trap (the code says
   * which kind; its rate is in `mess`), never an accident of the generator.
   */
  plantedErrors: { system: string; codes: Record<string, string> };
  modules: string[];
  resources: number;
  /** CodeSystem, ValueSet and ConceptMap resources of the terminology the charts are coded in (also in the base layer). */
  terminologyResources: number;
  /** Fingerprint of the index tables' DDL the population was indexed under. */
  indexSchema: string;
}

export interface SeedResult {
  metadata: DatasetMetadata;
  stats?: DatasetStats;
  card?: string;
  ndjsonFiles?: string[];
}

export function seedPopulation(options: SeedOptions): SeedResult {
  const referenceDate = options.referenceDate ?? DEFAULT_REFERENCE_DATE;
  const mess = options.clean ? NO_MESS : DEFAULT_MESS;
  const population: PopulationOptions = { patients: options.patients, seed: options.seed, referenceDate, mess };
  // The bulk path's worker collects the card and writes the NDJSON itself (it has the resources).
  const bulk = !!options.store && !!bulkIndexers(options.store);
  const stats = options.stats ? new StatsCollector(referenceDate) : undefined;
  const ndjson = options.ndjsonDir && !bulk ? new NdjsonWriter(options.ndjsonDir) : undefined;
  let loadedStats: DatasetStats | undefined;
  const bar = options.progress ? new SingleBar({ format: 'building population |{bar}| {value}/{total} patients | {resources} resources | {eta_formatted} left', etaBuffer: 50 }, Presets.shades_classic) : undefined;
  bar?.start(options.patients, 0, { resources: 0 });
  let resources = 0;
  let terminologyCount = 0;
  let done = 0;
  let ndjsonFiles: string[] | undefined;
  const observe = (batch: GeneratedBatch) => {
    resources += batch.resources.length;
    stats?.add(batch);
    if (ndjson) for (const r of batch.resources) ndjson.write(r);
    if (batch.patient) bar?.update(++done, { resources });
  };
  try {
    if (options.store) {
      const store = options.store;
      // Marked as building until the end: an interrupted or failed build is recognisable (and never half-served).
      store.setMetadata(DATASET_METADATA_KEY, JSON.stringify({ building: true }));
      store.clearSandbox(BASE_LAYER);
      // The code systems, value sets and concept maps the charts use, readable and searchable like any resource.
      const terminology = [...terminologyResources(sharedTerminology())];
      try {
        if (bulk) {
          const loaded = bulkLoadPopulation(store, population, {
            referenceDate, stats: !!stats, ndjsonDir: options.ndjsonDir, extra: terminology,
            onProgress: (patients, count) => bar?.update(patients, { resources: count }),
          });
          resources = loaded.resources;
          terminologyCount = loaded.extraResources;
          loadedStats = loaded.stats;
          ndjsonFiles = loaded.ndjsonFiles;
        } else {
          // A store with an indexer that has no bulk path: one Repository.write per resource.
          loadPopulation(store, generatePopulation(population), { referenceDate, onBatch: observe });
          terminologyCount = loadPopulation(store, [{ resources: terminology }], { referenceDate });
        }
      } catch (err) {
        store.clearSandbox(BASE_LAYER);
        throw err;
      }
    } else {
      for (const batch of generatePopulation(population)) {
        for (const r of batch.resources) assertValid(r);
        observe(batch);
      }
    }
  } finally {
    bar?.stop();
  }
  const metadata: DatasetMetadata = {
    generator: 'ehr-gym seed', formatVersion: 1, seed: options.seed, patients: options.patients, referenceDate,
    clean: !!options.clean, mess, plantedErrors: { system: PLANTED_ERROR_SYSTEM, codes: { ...PLANTED_ERRORS } }, modules: MODULES.map((m) => m.key), resources, terminologyResources: terminologyCount,
    indexSchema: options.store ? indexFingerprint(options.store) : '',
  };
  const result: SeedResult = { metadata };
  if (stats) {
    result.stats = loadedStats ?? stats.result();
    result.card = datasetCard(result.stats, { seed: options.seed, referenceDate, clean: !!options.clean, mess });
  }
  if (options.store) {
    options.store.setMetadata(DATASET_METADATA_KEY, JSON.stringify(metadata));
    if (result.card) options.store.setMetadata(DATASET_CARD_KEY, result.card);
  }
  if (ndjson) result.ndjsonFiles = ndjson.close();
  else if (ndjsonFiles) result.ndjsonFiles = ndjsonFiles;
  return result;
}

/**
 * Build the default population into an empty store (first start of `npm start`). Returns true when it built one,
 * false when the base layer already held data.
 */
export function ensureDefaultPopulation(store: Store, options: { patients: number; seed: number; progress: boolean }): boolean {
  const building = store.getMetadata(DATASET_METADATA_KEY)?.includes('"building"');
  if (store.countIn(BASE_LAYER) > 0 && !building) {
    // A population indexed under another index schema would answer searches wrongly: rebuild it, same settings.
    const meta = datasetMetadata(store);
    if (!meta || meta.indexSchema === indexFingerprint(store)) return false;
    console.error('ehr-gym: the search index schema changed since the population was loaded; rebuilding it.');
    seedPopulation({ store, patients: meta.patients, seed: meta.seed, clean: meta.clean, referenceDate: meta.referenceDate, progress: options.progress && process.stderr.isTTY, stats: true });
    return true;
  }
  // Without a terminal the bar does not render: say what is happening in plain lines instead.
  const plain = options.progress && !process.stderr.isTTY;
  const started = performance.now();
  if (plain) console.error(`ehr-gym: building the default population (${options.patients} patients, seed ${options.seed})...`);
  const result = seedPopulation({ store, patients: options.patients, seed: options.seed, progress: options.progress && !plain, stats: true });
  if (plain) console.error(`ehr-gym: ${result.metadata.resources} resources loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

/** A short hash of the store's index DDL. */
export function indexFingerprint(store: Store): string {
  return createHash('sha256').update(store.indexers.map((i) => i.schema).join('\n')).digest('hex').slice(0, 16);
}

/** The metadata of the population a store holds, if any. */
export function datasetMetadata(store: Store): DatasetMetadata | undefined {
  const raw = store.getMetadata(DATASET_METADATA_KEY);
  const meta = raw ? (JSON.parse(raw) as DatasetMetadata & { building?: boolean }) : undefined;
  return meta && !meta.building ? meta : undefined;
}
