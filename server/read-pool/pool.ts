// A pool of read workers (issue 22 "Both cores", issue 14 "bounded work per request"): searches, history,
// $everything, terminology and the other reads that can be heavy run on worker threads, each with its own read-only
// SQLite connection, while the main thread keeps HTTP, sessions, the audit log, writes and reads by id. A heavy read
// then holds one worker, not the event loop every session shares; past its time budget (plus a grace for the
// cooperative stop in resources/deadline.ts to act first) its worker is ended and replaced, which stops work no
// cooperative check reaches (one long SQLite statement). A worker's heap is capped, so a request that would grow it
// without bound ends only that worker.
import { Worker } from 'node:worker_threads';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FhirRequest, FhirResponse } from '../fhir-request.ts';
import type { ServerSettings } from '../context.ts';
import { tooCostly, type FhirError } from '../../resources/outcome.ts';
import { fromWire, toWire, type FromWorker, type ToWorker, type WireResponse, type WorkerSetup } from './protocol.ts';

export interface ReadPoolOptions {
  /** The SQLite file (a worker cannot share an in-memory database). */
  dbPath: string;
  settings: ServerSettings;
  /** Workers. */
  size: number;
  /**
   * How long a worker may spend on one request before it is ended: default the request's time budget plus 1000 ms,
   * so the cooperative stop acts first where it can; with no budget, never.
   */
  stopAfterMs?: number;
  /** A worker's old-generation heap cap in MiB (default 1024). */
  maxHeapMiB?: number;
  /** Answers a request on the calling thread: used when workers cannot start (then the pool is the plain server). */
  inline(req: FhirRequest): FhirResponse;
  /** Told once when workers cannot start and requests fall back to the main thread. */
  onFailure?(err: Error): void;
}

interface Job {
  id: number;
  req: FhirRequest;
  resolve(response: FhirResponse): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job?: Job;
  timer?: NodeJS.Timeout;
  /** Set when this pool ends the worker (hard stop, close): its exit is then expected. */
  ending?: boolean;
}

// The worker module sits next to this one, as .ts when run through tsx and .js once compiled. A worker thread does not
// inherit the module hooks tsx registered on this one (Node 20), so a .ts worker registers them itself first.
const WORKER_URL = new URL(`./worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);
const WORKER_SOURCE: [string | URL, { eval?: boolean }] = WORKER_URL.pathname.endsWith('.ts')
  ? [`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(WORKER_URL.href)}); });`, { eval: true }]
  : [WORKER_URL, {}];

export class ReadPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  /** Workers that ended before they were ready, in a row: past a few, the pool gives up and answers inline. */
  private failedStarts = 0;
  private failed = false;
  private lastStartError?: Error;

  private readonly started: Promise<void>;
  private startedNow!: () => void;

  constructor(private readonly options: ReadPoolOptions) {
    this.started = new Promise((resolve) => (this.startedNow = resolve));
    for (let i = 0; i < options.size; i++) this.spawn();
  }

  /** Resolves once every first worker is ready (or the pool gave up and answers inline). */
  ready(): Promise<void> {
    return this.started;
  }

  /**
   * Answers `req` on a worker when one is free, else once one is; FIFO. Requests that arrive before the first worker is
   * ready (seconds after a start: each loads the engine and the terminology index) wait for it rather than run here,
   * where a heavy one would hold every read by id and every write for its whole budget.
   */
  run(req: FhirRequest): Promise<FhirResponse> {
    if (this.failed || this.closed) return Promise.resolve(this.options.inline(req));
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, req, resolve });
      this.pump();
    });
  }

  /** Ends every worker; requests still queued are answered inline (Fastify's close waits for in-flight requests first). */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.resolve(this.options.inline(job.req));
    await Promise.all([...this.slots].map((slot) => this.end(slot)));
  }

  private spawn(): void {
    const setup: WorkerSetup = { dbPath: this.options.dbPath, settings: this.options.settings };
    const worker = new Worker(WORKER_SOURCE[0], {
      ...WORKER_SOURCE[1],
      workerData: setup,
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMiB ?? 1024 },
    });
    const slot: Slot = { worker, ready: false };
    this.slots.add(slot);
    worker.on('message', (message: FromWorker) => {
      if ('ready' in message) {
        slot.ready = true;
        this.failedStarts = 0;
        if ([...this.slots].every((s) => s.ready)) this.startedNow();
      } else if (slot.job?.id === message.id) {
        this.settle(slot, fromWire(message.response));
      }
      this.pump();
    });
    // 'error' (an uncaught exception or the heap cap) is followed by 'exit'; the job is answered there.
    worker.on('error', (err) => {
      if (!slot.ready) this.lastStartError = err;
    });
    worker.on('exit', () => this.exited(slot));
  }

  private exited(slot: Slot): void {
    this.slots.delete(slot);
    if (slot.ending || this.closed) return;
    // An unplanned end: the request it was answering made it (a heap cap reached) or it could not start.
    const job = slot.job;
    if (job) this.settle(slot, failure(tooCostly('The request needed more memory than a read worker may use; narrow it (fewer results, _count, fewer _include) and retry')));
    if (!slot.ready && ++this.failedStarts >= 3) {
      this.failed = true;
      this.startedNow();
      this.options.onFailure?.(this.lastStartError ?? new Error('read workers exited before they were ready'));
      for (const queued of this.queue.splice(0)) queued.resolve(this.options.inline(queued.req));
      return;
    }
    this.spawn();
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (!slot.ready || slot.job || slot.ending) continue;
      this.dispatch(slot, this.queue.shift()!);
    }
  }

  private dispatch(slot: Slot, job: Job): void {
    slot.job = job;
    const limit = this.stopAfterMs();
    if (limit !== undefined) slot.timer = setTimeout(() => this.stopHard(slot, limit), limit);
    slot.worker.postMessage({ id: job.id, request: toWire(job.req) } satisfies ToWorker);
  }

  private stopAfterMs(): number | undefined {
    if (this.options.stopAfterMs !== undefined) return this.options.stopAfterMs;
    const budget = this.options.settings.requestTimeBudgetMs;
    return budget > 0 && Number.isFinite(budget) ? budget + 1000 : undefined;
  }

  private settle(slot: Slot, response: FhirResponse): void {
    const job = slot.job;
    clearTimeout(slot.timer);
    slot.job = undefined;
    slot.timer = undefined;
    job?.resolve(response);
  }

  /** The request outran its budget where no cooperative check could stop it: end its worker, start another. */
  private stopHard(slot: Slot, limitMs: number): void {
    this.settle(slot, failure(tooCostly(`The request was stopped after ${limitMs} ms, past its time budget; narrow it (fewer results, _count, fewer _include) and retry`)));
    void this.end(slot).then(() => {
      if (!this.closed) this.spawn();
      this.pump();
    });
  }

  private async end(slot: Slot): Promise<void> {
    slot.ending = true;
    clearTimeout(slot.timer);
    this.slots.delete(slot);
    await slot.worker.terminate();
  }
}

function failure(error: FhirError): FhirResponse {
  const wire: WireResponse = { status: error.status, headers: error.headers, body: JSON.stringify(error.outcome), resourceIds: [] };
  return fromWire(wire);
}
