// The worker half of a bulk population load (seed/bulk-load.ts): generate each chart, validate it, feed the
// dataset card and NDJSON files, and prepare write-ready batches (stored JSON and index rows) for the main thread,
// which only writes. Messages go over a MessageChannel the main thread reads synchronously; `signal` counts them:
// [0] posted, [1] consumed. The worker stays at most MAX_AHEAD batches ahead, so memory stays flat in N.
import { workerData, type MessagePort } from 'node:worker_threads';
import type { Resource } from '@medplum/fhirtypes';
import { BatchPreparer, type Preparer } from '../resources/storage/bulk.ts';
import { virtualClock } from '../resources/storage/sandbox.ts';
import { generatePopulation, type PopulationOptions } from './generate.ts';
import { assertValid } from './load.ts';
import { NdjsonWriter } from './ndjson.ts';
import { StatsCollector } from './stats.ts';

export interface WorkerInput {
  population: PopulationOptions;
  sandbox: string;
  referenceDate: string;
  preparers: { module: string; state: unknown }[];
  stats: boolean;
  ndjsonDir?: string;
  /** Resources per batch. */
  batchSize: number;
  port: MessagePort;
  signal: SharedArrayBuffer;
}

export type WorkerMessage =
  | { kind: 'batch'; batch: ReturnType<BatchPreparer['take']>; patients: number; resources: number }
  | { kind: 'done'; stats?: ReturnType<StatsCollector['result']>; ndjsonFiles?: string[] }
  | { kind: 'error'; name: string; message: string };

/** Batches the worker may run ahead of the writer (memory stays bounded). */
const MAX_AHEAD = 16;

const input = workerData as WorkerInput;
const counters = new Int32Array(input.signal);

function send(message: WorkerMessage): void {
  for (;;) {
    const consumed = Atomics.load(counters, 1);
    if (Atomics.load(counters, 0) - consumed < MAX_AHEAD) break;
    Atomics.wait(counters, 1, consumed, 1000);
  }
  input.port.postMessage(message);
  Atomics.add(counters, 0, 1);
  Atomics.notify(counters, 0);
}

try {
  const preparers = await Promise.all(input.preparers.map(async (spec) => {
    const module = (await import(spec.module)) as { createPreparer(state: unknown): Preparer };
    return module.createPreparer(spec.state);
  }));
  const preparer = new BatchPreparer(input.sandbox, virtualClock(new Date(input.referenceDate)), preparers);
  const stats = input.stats ? new StatsCollector(input.referenceDate) : undefined;
  const ndjson = input.ndjsonDir ? new NdjsonWriter(input.ndjsonDir) : undefined;
  let patients = 0;
  let resources = 0;
  for (const batch of generatePopulation(input.population)) {
    for (const r of batch.resources) assertValid(r);
    stats?.add(batch);
    if (ndjson) for (const r of batch.resources) ndjson.write(r);
    for (const r of batch.resources) preparer.add(r as Resource & { id: string });
    resources += batch.resources.length;
    if (batch.patient) patients++;
    if (preparer.count >= input.batchSize) send({ kind: 'batch', batch: preparer.take(), patients, resources });
  }
  if (preparer.count > 0) send({ kind: 'batch', batch: preparer.take(), patients, resources });
  send({ kind: 'done', stats: stats?.result(), ndjsonFiles: ndjson?.close() });
} catch (err) {
  const e = err as Error;
  send({ kind: 'error', name: e.name ?? 'Error', message: e.message ?? String(err) });
}
