// Gym session benchmark (issue 5 section 8): session create + first read p50 on a small and a large base (the
// ratio shows creation does not depend on the base size), throughput of 64 concurrent sessions doing a
// read/search/write mix over HTTP against one session taking the same load, and memory per idle session.
// Population: the generated stand-in of bench/search-population.ts, written into the base layer of a temp file.
// Sizes from BENCH_SESSION_PATIENTS (default "250,10000"); load duration from BENCH_SESSION_SECONDS (default 5).
// The server for the throughput runs is a child process (this file with --serve), so the load generator does not
// share its event loop.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Store } from '../resources/storage/store.ts';
import { Repository } from '../resources/storage/repository.ts';
import { makeSandbox } from '../resources/storage/sandbox.ts';
import { createSearchIndexer } from '../resources/search/index.ts';
import { buildApp } from '../server/app.ts';
import { noClientLimits } from '../server/gym/sessions.ts';
import { population } from './search-population.ts';

const OBS_PER_PATIENT = 4;
const CONCURRENCY = 64;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

const ms = (x: number) => x.toFixed(2);

/**
 * A lean keep-alive HTTP client (node:http): undici's fetch adds milliseconds of its own per POST on a loaded
 * machine, which would be measured as server time.
 */
function client(address: string, maxSockets: number) {
  const { port } = new URL(address);
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const request = (method: string, path: string, body?: string, type = 'application/json') =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const headers: Record<string, string | number> = body === undefined ? {} : { 'content-type': type, 'content-length': Buffer.byteLength(body) };
      const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    });
  return { request, close: () => agent.destroy() };
}

/**
 * A database file holding `patients` stand-in patients in the base layer, copied into `dir`. Built bases are cached
 * in the temp directory, keyed by the code that shapes their rows (storage, search indexing, the population).
 */
export function buildBase(dir: string, patients: number): { path: string; resources: number; seconds: number; cached: boolean } {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const hash = createHash('sha256');
  for (const folder of ['resources/search', 'resources/storage']) {
    for (const file of readdirSync(join(root, folder)).sort()) if (file.endsWith('.ts')) hash.update(readFileSync(join(root, folder, file)));
  }
  hash.update(readFileSync(join(root, 'bench/search-population.ts')));
  const cacheDir = join(tmpdir(), 'ehr-gym-bench-bases');
  const cached = join(cacheDir, `sessions-${patients}-${OBS_PER_PATIENT}-${hash.digest('hex').slice(0, 16)}.sqlite`);
  const path = join(dir, `base-${patients}.sqlite`);
  if (existsSync(cached)) {
    copyFileSync(cached, path);
    const store = new Store({ path, readonly: true });
    const resources = store.countIn('base');
    store.close();
    return { path, resources, seconds: 0, cached: true };
  }
  const built = writeBase(join(dir, `build-${patients}.sqlite`), patients);
  mkdirSync(cacheDir, { recursive: true });
  copyFileSync(built.path, `${cached}.partial`);
  renameSync(`${cached}.partial`, cached);
  copyFileSync(built.path, path);
  return { ...built, path, cached: false };
}

function writeBase(path: string, patients: number): { path: string; resources: number; seconds: number } {
  const store = new Store({ path, indexers: [createSearchIndexer()] });
  const repo = new Repository(store, makeSandbox('base'));
  let resources = 0;
  const t0 = performance.now();
  store.transaction(() => {
    for (const r of population(patients, OBS_PER_PATIENT)) {
      repo.write(r);
      resources++;
    }
  });
  store.db.exec('ANALYZE');
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  store.close();
  return { path, resources, seconds: (performance.now() - t0) / 1000 };
}

/** Serial create + first read over a real socket; p50/p95 of each. */
async function createAndFirstRead(dbPath: string, patients: number) {
  // Over HTTP against a server in a child process (its own event loop and heap), then the manager alone in-process.
  const server = await startChild(dbPath);
  const http1 = client(server.address, 1);
  const create: number[] = [];
  const both: number[] = [];
  const inProcess: number[] = [];
  try {
    for (let i = 0; i < 330; i++) {
      const t0 = performance.now();
      const res = await http1.request('POST', '/gym/sessions', '{"now":"2023-11-13T10:15:00Z"}');
      const { id } = JSON.parse(res.body) as { id: string };
      const t1 = performance.now();
      const read = await http1.request('GET', `/fhir/_session/${id}/Patient/pat-${(i * 7919) % patients}`);
      const t2 = performance.now();
      if (read.status !== 200) throw new Error(`first read ${read.status}`);
      if (i >= 30) {
        create.push(t1 - t0);
        both.push(t2 - t0);
      }
    }
  } finally {
    http1.close();
    await server.stop();
  }
  const { app, sessions } = buildApp({ dbPath, gym: { maxSessions: 100000 } });
  try {
    for (let i = 0; i < 1000; i++) {
      const t0 = performance.now();
      sessions.create({ now: '2023-11-13T10:15:00Z' }, () => '');
      inProcess.push(performance.now() - t0);
    }
  } finally {
    await app.close();
  }
  for (const list of [create, both, inProcess]) list.sort((a, b) => a - b);
  return {
    create: [percentile(create, 0.5), percentile(create, 0.95)],
    both: [percentile(both, 0.5), percentile(both, 0.95)],
    inProcess: [percentile(inProcess, 0.5), percentile(inProcess, 0.95)],
  };
}

/**
 * Start the server in a child process over `dbPath` with `readWorkers` read workers (ready before it answers), as
 * replica `replicaId` telling clients `baseUrl` when given (bench/scale.ts); resolves with its address.
 */
export function startChild(dbPath: string, readWorkers = 0, replica?: { id: string; baseUrl: string }): Promise<{ address: string; stop: () => Promise<void> }> {
  const args = [fileURLToPath(import.meta.url), '--serve', dbPath, String(readWorkers), ...(replica ? [replica.id, replica.baseUrl] : [])];
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = /^(http:\/\/\S+)\n/m.exec(out);
      if (line) {
        resolve({
          address: line[1],
          stop: () => new Promise<void>((done) => {
            child.once('exit', () => done());
            child.kill();
          }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`bench server exited ${code}`)));
  });
}

/** One worker's loop: 50% reads, 30% searches, 20% writes, in its session, until the deadline. */
type Client = ReturnType<typeof client>;

async function worker(http64: Client, base: string, patients: number, seed: number, deadline: number, counts: { ok: number; failed: number; ms: number[] }) {
  let i = seed;
  while (performance.now() < deadline) {
    const started = performance.now();
    i = (i * 1103515245 + 12345) >>> 0;
    const pid = `pat-${(i >>> 8) % patients}`;
    const kind = (i >>> 4) % 10;
    let res: { status: number };
    if (kind < 5) {
      res = await http64.request('GET', `${base}/Patient/${pid}`);
    } else if (kind < 8) {
      res = await http64.request('GET', `${base}/Observation?patient=${pid}&code=http://loinc.org|2823-3`);
    } else {
      res = await http64.request('POST', `${base}/Observation`, JSON.stringify({
        resourceType: 'Observation', status: 'final', code: { coding: [{ system: 'http://loinc.org', code: '2823-3' }] },
        subject: { reference: `Patient/${pid}` }, valueQuantity: { value: 3.4, unit: 'mmol/L' },
      }), 'application/fhir+json');
    }
    if (res.status < 300) counts.ok++;
    else counts.failed++;
    counts.ms.push(performance.now() - started);
  }
}

/** `sessionsCount` sessions under the 64-client mix for `seconds`: requests/s, failures and the p99 latency (ms). */
export async function throughput(address: string, patients: number, sessionsCount: number, seconds: number) {
  const http64 = client(address, CONCURRENCY);
  const ids: string[] = [];
  for (let i = 0; i < sessionsCount; i++) ids.push((JSON.parse((await http64.request('POST', '/gym/sessions', '{}')).body) as { id: string }).id);
  const counts = { ok: 0, failed: 0, ms: [] as number[] };
  const run = (deadline: number, seedBase: number, into: typeof counts) => Promise.all(Array.from({ length: CONCURRENCY }, (_, w) =>
    worker(http64, `/fhir/_session/${ids[w % ids.length]}`, patients, w + seedBase, deadline, into)));
  await run(performance.now() + 500, 1, { ok: 0, failed: 0, ms: [] }); // warm-up
  const t0 = performance.now();
  await run(t0 + seconds * 1000, 101, counts);
  const elapsed = (performance.now() - t0) / 1000;
  for (const id of ids) await http64.request('DELETE', `/gym/sessions/${id}`);
  http64.close();
  return { rps: counts.ok / elapsed, failed: counts.failed, p99: percentile(counts.ms.sort((a, b) => a - b), 0.99) };
}

function collectGarbage(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Heap and database bytes per idle session (2000 sessions created, nothing done in them). */
async function memoryPerSession(dbPath: string) {
  const gc = collectGarbage();
  const built = buildApp({ dbPath, gym: { maxSessions: 100000 } });
  await built.app.ready();
  const pageSize = built.context.store.db.pragma('page_size', { simple: true }) as number;
  const pages = () => (built.context.store.db.pragma('page_count', { simple: true }) as number) - (built.context.store.db.pragma('freelist_count', { simple: true }) as number);
  gc();
  const heap0 = process.memoryUsage().heapUsed;
  const pages0 = pages();
  const n = 2000;
  for (let i = 0; i < n; i++) built.sessions.create({ now: '2023-11-13T10:15:00Z' }, () => '');
  gc();
  const heap = (process.memoryUsage().heapUsed - heap0) / n;
  const db = ((pages() - pages0) * pageSize) / n;
  await built.app.close();
  return { heap, db };
}

export async function benchSessions(): Promise<string> {
  const sizes = (process.env.BENCH_SESSION_PATIENTS ?? '250,10000').split(',').map(Number);
  const seconds = Number(process.env.BENCH_SESSION_SECONDS ?? 5);
  const dir = mkdtempSync(join(tmpdir(), 'ehr-gym-bench-sessions-'));
  const lines: string[] = [];
  const load = loadavg()[0];
  try {
    const bases = sizes.map((n) => ({ n, ...buildBase(dir, n) }));
    const created = [];
    for (const base of bases) created.push({ ...base, ...(await createAndFirstRead(base.path, base.n)) });
    const small = created[0];
    const large = created[created.length - 1];

    const largest = bases[bases.length - 1];
    const server = await startChild(largest.path);
    let single;
    let many;
    try {
      single = await throughput(server.address, largest.n, 1, seconds);
      many = await throughput(server.address, largest.n, CONCURRENCY, seconds);
    } finally {
      await server.stop();
    }
    // The same 64-session load with searches on the read pool (server/read-pool/), as `ehr-gym serve` runs by default.
    const poolSize = Math.max(2, availableParallelism());
    const pooledServer = await startChild(largest.path, poolSize);
    let pooled;
    try {
      pooled = await throughput(pooledServer.address, largest.n, CONCURRENCY, seconds);
    } finally {
      await pooledServer.stop();
    }
    const memory = await memoryPerSession(largest.path);

    lines.push('## Gym sessions', '');
    lines.push(`Stand-in base (bench/search-population.ts, ${OBS_PER_PATIENT} observations per patient) in a SQLite file; server in a child process (clients: node:http keep-alive); \`manager create\` is the session manager alone, in-process. Node ${process.version}; 1-minute load average at start ${load.toFixed(1)}.`, '');
    lines.push('| base | resources | build s | create p50 / p95 ms (HTTP) | create + first read p50 / p95 ms | manager create p50 ms (no HTTP) |');
    lines.push('|---|---|---|---|---|---|');
    for (const c of created) {
      lines.push(`| ${c.n} patients | ${c.resources} | ${c.cached ? 'cached' : c.seconds.toFixed(1)} | ${ms(c.create[0])} / ${ms(c.create[1])} | ${ms(c.both[0])} / ${ms(c.both[1])} | ${c.inProcess[0].toFixed(3)} |`);
    }
    const ratio = large.both[0] / small.both[0];
    lines.push('', `Create + first read p50 ratio ${large.n} / ${small.n} patients: **${ratio.toFixed(2)}** (target <= 1.5); create p50 ${ms(large.create[0])} ms (target < 5 ms).`, '');
    lines.push(`Throughput on the ${largest.n}-patient base, ${CONCURRENCY} concurrent clients, mix 50% read / 30% search (Observation?patient&code) / 20% create, ${seconds} s:`, '');
    lines.push('| sessions | requests/s | failed |', '|---|---|---|');
    lines.push(`| 1 session shared by ${CONCURRENCY} clients | ${single.rps.toFixed(0)} | ${single.failed} |`);
    lines.push(`| ${CONCURRENCY} sessions, one client each | ${many.rps.toFixed(0)} | ${many.failed} |`);
    lines.push(`| ${CONCURRENCY} sessions, one client each, ${poolSize} read workers | ${pooled.rps.toFixed(0)} | ${pooled.failed} |`);
    lines.push('', `${CONCURRENCY}-session / single-session throughput: **${(many.rps / single.rps).toFixed(2)}** (target >= 0.5; without read workers the server is one thread, so this is per core).`, '');
    lines.push(`${CONCURRENCY}-session throughput with ${poolSize} read workers / without: **${(pooled.rps / many.rps).toFixed(2)}** (issue 22 target >= 1.6 on 2 cores; ${availableParallelism()} CPUs here).`, '');
    lines.push(`Memory per idle session: ${(memory.heap / 1024).toFixed(1)} KiB of JS heap, ${memory.db.toFixed(0)} bytes of database (its metadata row; no resource rows).`, '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return lines.join('\n');
}

// Child mode: serve the database given after --serve and print the address.
if (process.argv[2] === '--serve' && process.argv[1] === fileURLToPath(import.meta.url)) {
  // One client creating hundreds of sessions is the point here: no per-client limits.
  const [dbPath, workers, replicaId, baseUrl] = process.argv.slice(3);
  const { app, readPool } = buildApp({
    dbPath, gym: { maxSessions: 100000, ...noClientLimits, ...(replicaId ? { replicaId } : {}) }, readPool: { workers: Number(workers ?? 0) },
    ...(baseUrl ? { baseUrl } : {}),
  });
  await readPool?.ready();
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${address}\n`);
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await benchSessions());
}
