// Plain-JS entry of the population-load worker. Worker threads do not inherit tsx's module hooks, so this registers
// them before loading the TypeScript worker; and it reports a failure to load it (which would otherwise leave the
// main thread, blocked reading the channel, waiting for a message that never comes).
import { workerData } from 'node:worker_threads';

try {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('./load-worker.ts', import.meta.url).href);
} catch (err) {
  workerData.port.postMessage({ kind: 'error', name: err?.name ?? 'Error', message: `population worker failed to start: ${err?.message ?? err}` });
  const counters = new Int32Array(workerData.signal);
  Atomics.add(counters, 0, 1);
  Atomics.notify(counters, 0);
}
