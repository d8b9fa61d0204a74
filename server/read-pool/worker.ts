// A read worker (server/read-pool/pool.ts starts it): the same FHIR router and services as the main thread, over a
// read-only connection to the same SQLite file, answering one request at a time.
import { parentPort, workerData } from 'node:worker_threads';
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { Store } from '../../resources/storage/store.ts';
import { Repository } from '../../resources/storage/repository.ts';
import type { Clock, Sandbox } from '../../resources/storage/sandbox.ts';
import { createSearchService } from '../../resources/search/index.ts';
import { sharedTerminology } from '../../resources/terminology/index.ts';
import { defaultOperations } from '../operations/index.ts';
import type { FhirRequest, FhirResponse, ServerContext } from '../fhir-request.ts';
import { route } from '../router.ts';
import { toFhirError } from '../http/errors.ts';
import { returnedResourceIds } from '../http/returned-ids.ts';
import type { FromWorker, ToWorker, WireRequest, WireResponse, WorkerSetup } from './protocol.ts';

const setup = workerData as WorkerSetup;
const port = parentPort!;
const terminology = sharedTerminology();
const search = createSearchService(terminology);
const store = new Store({ path: setup.dbPath, readonly: true, indexers: [search.indexer] });
const context: ServerContext = { store, settings: setup.settings, search, terminology, operations: defaultOperations() };

/** One Repository per sandbox (it caches prepared statements), with a clock set to the instant each request brings. */
const MAX_REPOSITORIES = 1000;
const repositories = new Map<string, { repo: Repository; clock: { at: Date } }>();

function repositoryFor(wire: WireRequest['sandbox']): Repository {
  let entry = repositories.get(wire.name);
  if (!entry) {
    if (repositories.size >= MAX_REPOSITORIES) repositories.clear();
    const clock = { at: new Date(wire.now) };
    const readClock: Clock = { now: () => clock.at };
    const sandbox: Sandbox = {
      name: wire.name, layers: wire.layers, clock: readClock, writable: false,
      newId: () => { throw new Error('a read worker assigns no ids'); },
    };
    entry = { repo: new Repository(store, sandbox), clock };
    repositories.set(wire.name, entry);
  }
  entry.clock.at = new Date(wire.now);
  return entry.repo;
}

/**
 * A worker runs below the main thread's scheduling priority (nice +10), so on a machine whose cores the workers' heavy
 * reads fill, the main thread (HTTP, reads by id, writes, the audit log) still gets a core when it has work. Linux
 * applies setpriority to one thread when given its thread id (/proc/thread-self names it); elsewhere this does nothing.
 */
function lowerThreadPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, Math.max(getPriority(tid), 10));
  } catch {
    // Not Linux, or not permitted: the worker keeps the process's priority.
  }
}

function answer(wire: WireRequest): WireResponse {
  const { sandbox, ...fields } = wire;
  const req: FhirRequest = { ...fields, repo: repositoryFor(sandbox), context };
  let response: FhirResponse;
  try {
    response = route(req);
    // runsOffThread keeps streamed and child-process answers on the main thread; reaching one here is a defect.
    if (response.deferred || response.stream) throw new Error(`${wire.method} ${wire.path} does not answer with a whole body`);
  } catch (err) {
    const failure = toFhirError(err);
    return { status: failure.status, headers: failure.headers, body: JSON.stringify(failure.outcome), resourceIds: [] };
  }
  const body = response.body === undefined ? undefined : typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
  return {
    status: response.status,
    ...(response.headers ? { headers: response.headers } : {}),
    ...(body !== undefined ? { body } : {}),
    resourceIds: returnedResourceIds(response),
  };
}

// Built before the first request, so no request's time budget pays for it (the main thread's hard stop counts it).
void terminology.index;
lowerThreadPriority();
port.on('message', (message: ToWorker) => {
  const reply: FromWorker = { id: message.id, response: answer(message.request) };
  port.postMessage(reply);
});
port.postMessage({ ready: true } satisfies FromWorker);
