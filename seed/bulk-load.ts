// Loading a population with the bulk path (resources/storage/bulk.ts) and both cores: a worker thread generates,
// validates and prepares batches (seed/load-worker.ts) while this thread writes them. The API stays synchronous:
// this thread blocks on the channel (Atomics.wait), as it would on SQLite. Same seed, same rows as loadPopulation
// (Repository.write), proven by test/seed/bulk-load.test.ts.
import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';
import type { Resource } from '@medplum/fhirtypes';
import { BatchPreparer, BulkLoader, type PreparedBatch } from '../resources/storage/bulk.ts';
import { BASE_LAYER, virtualClock } from '../resources/storage/sandbox.ts';
import type { Store } from '../resources/storage/store.ts';
import type { PopulationOptions } from './generate.ts';
import { assertValid, InvalidSeedResourceError } from './load.ts';
import type { DatasetStats } from './stats.ts';
import type { WorkerInput, WorkerMessage } from './load-worker.ts';

export interface BulkLoadOptions {
  referenceDate: string;
  stats?: boolean;
  ndjsonDir?: string;
  /** Resources the base layer also gets after the population (terminology), loaded the same way. */
  extra?: Resource[];
  onProgress?(patients: number, resources: number): void;
  /** Resources per batch the worker sends (several may share a transaction). */
  batchSize?: number;
}

export interface BulkLoadResult {
  resources: number;
  extraResources: number;
  stats?: DatasetStats;
  ndjsonFiles?: string[];
}

/** A worker that sends nothing for this long has died (e.g. out of memory). */
const STALL_MS = 120_000;
/** Resources written per transaction (at least; whole batches). */
const TRANSACTION_RESOURCES = 2000;

export function bulkLoadPopulation(store: Store, population: PopulationOptions, options: BulkLoadOptions): BulkLoadResult {
  const loader = new BulkLoader(store, BASE_LAYER);
  const signal = new SharedArrayBuffer(8);
  const counters = new Int32Array(signal);
  const { port1, port2 } = new MessageChannel();
  const input: WorkerInput = {
    population, sandbox: BASE_LAYER, referenceDate: options.referenceDate, preparers: loader.preparerSpecs(),
    stats: !!options.stats, ndjsonDir: options.ndjsonDir, batchSize: options.batchSize ?? 250, port: port2, signal,
  };
  const worker = new Worker(new URL('./load-worker-start.mjs', import.meta.url), { workerData: input, transferList: [port2] });
  const result: BulkLoadResult = { resources: 0, extraResources: 0 };
  loader.begin();
  try {
    for (let done = false; !done;) {
      // The worker sends small batches (big row lists cost it more in garbage collection than they save); this
      // thread, which is faster and would wait anyway, gathers them into transactions of TRANSACTION_RESOURCES.
      const batches: PreparedBatch[] = [];
      let count = 0;
      let last: (WorkerMessage & { kind: 'batch' }) | undefined;
      while (count < TRANSACTION_RESOURCES) {
        const message = receive(port1, counters);
        if (message.kind === 'error') {
          throw message.name === 'InvalidSeedResourceError' ? new InvalidSeedResourceError(message.message) : new Error(message.message);
        }
        if (message.kind === 'done') {
          result.stats = message.stats;
          result.ndjsonFiles = message.ndjsonFiles;
          done = true;
          break;
        }
        batches.push(message.batch);
        count += message.batch.count;
        last = message;
      }
      loader.write(...batches);
      if (last) {
        result.resources = last.resources;
        options.onProgress?.(last.patients, last.resources);
      }
    }
    if (options.extra?.length) {
      // A clock of their own from the reference date, as a separate Repository.write load would have.
      const preparer = new BatchPreparer(BASE_LAYER, virtualClock(new Date(options.referenceDate)), loader.inlinePreparers());
      for (const r of options.extra) {
        assertValid(r);
        preparer.add(r as Resource & { id: string });
      }
      result.extraResources = preparer.count;
      loader.write(preparer.take());
    }
  } finally {
    void worker.terminate();
    port1.close();
    loader.finish();
  }
  return result;
}

/** The next message, waiting for it without returning to the event loop. */
function receive(port: MessageChannel['port1'], counters: Int32Array): WorkerMessage {
  for (;;) {
    const seen = Atomics.load(counters, 0);
    const received = receiveMessageOnPort(port);
    if (received) {
      Atomics.add(counters, 1, 1);
      Atomics.notify(counters, 1);
      return received.message as WorkerMessage;
    }
    if (Atomics.wait(counters, 0, seen, STALL_MS) === 'timed-out') {
      throw new Error(`the population worker sent nothing for ${STALL_MS / 1000} s`);
    }
  }
}
