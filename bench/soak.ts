// Soak benchmark (issue 14, "A fuzz suite ... and a soak benchmark"): many gym sessions under a mixed load (reads,
// searches, writes, transactions) for a fixed time, three workers running the worst-case requests of issue 14 without
// pause, and a `kill -9` of the server half-way followed by a restart on the same database file. Reports 5xx answers,
// hangs, acknowledged writes lost across the kill, latency of light reads while the heavy requests run, and the
// server's RSS over time. The server is a child process (bench/soak-server.ts); the load runs in this process.
// Settings (environment): BENCH_SOAK_SECONDS (60), BENCH_SOAK_SESSIONS (50), BENCH_SOAK_PATIENTS (20, the seeded
// base), BENCH_SOAK_THINK_MS (200: mean pause of a session between requests, as an agent waits for its model),
// BENCH_SOAK_BUDGETS ("default": one run per per-request time budget in ms, "default" being the server's own),
// BENCH_SOAK_READ_WORKERS ("0,2": one run per read-pool size, 0 being every request on the main thread),
// BENCH_SOAK_KILL (1; 0 runs without the kill, for a longer look at memory).
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { killHard, rssMiB, startServer, stop, type ServerProcess } from './soak-server.ts';

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
const SESSIONS = Number(process.env.BENCH_SOAK_SESSIONS ?? 50);
const PATIENTS = Number(process.env.BENCH_SOAK_PATIENTS ?? 20);
const THINK_MS = Number(process.env.BENCH_SOAK_THINK_MS ?? 200);
const KILL = process.env.BENCH_SOAK_KILL !== '0';
const READ_WORKERS = (process.env.BENCH_SOAK_READ_WORKERS ?? '0,2').split(',').map((n) => Number(n.trim()));
const BUDGETS = (process.env.BENCH_SOAK_BUDGETS ?? 'default').split(',').map((b) => (b.trim() === 'default' ? undefined : Number(b)));
/** A request unanswered after this long is a hang (the server's own time budget is 5 s). */
const HANG_MS = 30_000;

/** The three worst-case requests of issue 14, each run back to back by its own worker on the shared /fhir base. */
const HEAVY: { name: string; method: string; path: string; body?: unknown }[] = [
  { name: '_include/_revinclude * :iterate, _count=10000', method: 'GET', path: '/fhir/Observation?_count=10000&_include=*&_revinclude=*&_include:iterate=*&_revinclude:iterate=*' },
  {
    name: 'ValueSet/$expand, inline regex filter (.|.)*#', method: 'POST', path: '/fhir/ValueSet/$expand',
    body: { resourceType: 'Parameters', parameter: [{ name: 'valueSet', resource: { resourceType: 'ValueSet', status: 'active', compose: { include: [{ system: 'http://loinc.org', filter: [{ property: 'code', op: 'regex', value: '(.|.)*#' }] }] } } }] },
  },
  { name: 'type-level Patient/$everything', method: 'GET', path: '/fhir/Patient/$everything?_count=1000' },
];

type Outcome = { kind: 'answer'; status: number; body: string; ms: number } | { kind: 'hang' | 'connection'; ms: number; error: string };

/** The server now answering; replaced by the restart. */
let current: ServerProcess;
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

function request(method: string, path: string, body?: unknown): Promise<Outcome> {
  const { port } = new URL(current.root);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const started = performance.now();
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = payload === undefined ? {} : { 'content-type': 'application/fhir+json', 'content-length': Buffer.byteLength(payload) };
    const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ kind: 'answer', status: res.statusCode ?? 0, body: text, ms: performance.now() - started });
      });
      res.on('error', (err) => {
        clearTimeout(timer);
        resolve({ kind: 'connection', ms: performance.now() - started, error: err.message });
      });
    });
    const timer = setTimeout(() => {
      req.destroy(new Error('hang'));
    }, HANG_MS);
    req.on('error', (err) => {
      clearTimeout(timer);
      resolve({ kind: err.message === 'hang' ? 'hang' : 'connection', ms: performance.now() - started, error: err.message });
    });
    req.end(payload);
  });
}

interface Ack {
  base: string;
  type: string;
  id: string;
  version: string;
}

interface Tally {
  byKind: Map<string, { n: number; statuses: Map<number, number>; ms: number[] }>;
  fiveXx: { what: string; status: number; body: string }[];
  hangs: string[];
  connectionErrors: number;
  acks: Ack[];
  /** Light reads (GET by id) answered 200 while the heavy workers ran: [start time, ms]. */
  lightReads: [number, number][];
}

const emptyTally = (): Tally => ({ byKind: new Map(), fiveXx: [], hangs: [], connectionErrors: 0, acks: [], lightReads: [] });
let tally = emptyTally();

function record(kind: string, what: string, outcome: Outcome): void {
  if (outcome.kind === 'hang') tally.hangs.push(what);
  if (outcome.kind === 'connection') {
    tally.connectionErrors++;
    return;
  }
  if (outcome.kind !== 'answer') return;
  const entry = tally.byKind.get(kind) ?? { n: 0, statuses: new Map<number, number>(), ms: [] as number[] };
  entry.n++;
  entry.statuses.set(outcome.status, (entry.statuses.get(outcome.status) ?? 0) + 1);
  entry.ms.push(outcome.ms);
  tally.byKind.set(kind, entry);
  if (outcome.status >= 500) tally.fiveXx.push({ what, status: outcome.status, body: outcome.body.slice(0, 300) });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pick = <T>(xs: T[]): T => xs[Math.floor(Math.random() * xs.length)];

/** The `Type/id/_history/v` of a Location header value or an entry's response.location. */
function ackOf(base: string, location: string | undefined): Ack | undefined {
  const match = /([A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})\/_history\/([^/]+)$/.exec(location ?? '');
  return match ? { base, type: match[1], id: match[2], version: match[3] } : undefined;
}

const observation = (subject: string, value: number) => ({
  resourceType: 'Observation', status: 'final',
  code: { coding: [{ system: 'http://loinc.org', code: '2823-3', display: 'Potassium' }] },
  subject: { reference: subject }, effectiveDateTime: '2024-05-01T10:00:00Z',
  valueQuantity: { value, unit: 'mmol/L', system: 'http://unitsofmeasure.org', code: 'mmol/L' },
});

/** One session's loop: a weighted mix with a random pause (mean THINK_MS) between requests. */
async function sessionWorker(base: string, patients: string[], until: number): Promise<void> {
  const mine: Ack[] = [];
  while (performance.now() < until) {
    await sleep(Math.random() * 2 * THINK_MS);
    const roll = Math.random();
    const patient = pick(patients);
    if (roll < 0.4) {
      const started = performance.now();
      const outcome = await request('GET', `${base}/Patient/${patient}`);
      record('read', `GET ${base}/Patient/${patient}`, outcome);
      if (outcome.kind === 'answer' && outcome.status === 200) tally.lightReads.push([started, outcome.ms]);
    } else if (roll < 0.7) {
      const path = pick([
        `${base}/Observation?patient=${patient}&_count=20&_sort=-date`,
        `${base}/Condition?patient=${patient}&clinical-status=active`,
        `${base}/MedicationRequest?patient=${patient}&status=active&_include=MedicationRequest:medication`,
        `${base}/Patient?gender=female&birthdate=ge1960&_count=10`,
      ]);
      record('search', `GET ${path}`, await request('GET', path));
    } else if (roll < 0.9) {
      const update = mine.length > 0 && Math.random() < 0.3 ? pick(mine) : undefined;
      const body = observation(`Patient/${patient}`, 3 + Math.random() * 3);
      const outcome = update
        ? await request('PUT', `${base}/Observation/${update.id}`, { ...body, id: update.id })
        : await request('POST', `${base}/Observation`, body);
      record('write', `${update ? 'PUT' : 'POST'} ${base}/Observation`, outcome);
      if (outcome.kind === 'answer' && (outcome.status === 200 || outcome.status === 201)) {
        const resource = JSON.parse(outcome.body) as { id: string; meta: { versionId: string } };
        const ack = { base, type: 'Observation', id: resource.id, version: resource.meta.versionId };
        tally.acks.push(ack);
        if (!update) mine.push(ack);
      }
    } else {
      const bundle = {
        resourceType: 'Bundle', type: 'transaction',
        entry: [
          { fullUrl: 'urn:uuid:0c3f4e2a-6b1d-4c8e-9f7a-1a2b3c4d5e6f', resource: { resourceType: 'Patient', name: [{ family: 'Soak' }], gender: 'other' }, request: { method: 'POST', url: 'Patient' } },
          { resource: observation('urn:uuid:0c3f4e2a-6b1d-4c8e-9f7a-1a2b3c4d5e6f', 4.2), request: { method: 'POST', url: 'Observation' } },
        ],
      };
      const outcome = await request('POST', base, bundle);
      record('transaction', `POST ${base} (transaction)`, outcome);
      if (outcome.kind === 'answer' && outcome.status === 200) {
        const reply = JSON.parse(outcome.body) as { entry?: { response?: { location?: string } }[] };
        for (const entry of reply.entry ?? []) {
          const ack = ackOf(base, entry.response?.location);
          if (ack) tally.acks.push(ack);
        }
      }
    }
  }
}

async function heavyWorker(heavy: (typeof HEAVY)[number], until: number): Promise<void> {
  while (performance.now() < until) {
    const outcome = await request(heavy.method, heavy.path, heavy.body);
    record(`heavy: ${heavy.name}`, `${heavy.method} ${heavy.path}`, outcome);
    if (outcome.kind === 'connection') await sleep(50);
  }
}

/** A steady probe: one light read every 50 ms on the default base, timed. */
async function probeWorker(patients: string[], until: number): Promise<void> {
  while (performance.now() < until) {
    const started = performance.now();
    const outcome = await request('GET', `/fhir/Patient/${pick(patients)}`);
    record('read (probe)', 'GET /fhir/Patient/{id}', outcome);
    if (outcome.kind === 'answer' && outcome.status === 200) tally.lightReads.push([started, outcome.ms]);
    await sleep(50);
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN;
}

const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');

export async function benchSoak(): Promise<string> {
  const parts: string[] = [];
  for (const budget of BUDGETS) for (const workers of READ_WORKERS) parts.push(await soak(budget, workers));
  return parts.join('\n\n');
}

/** One soak run against a fresh database, the server on time budget `budgetMs` (undefined: its default) with `readWorkers`. */
async function soak(budgetMs: number | undefined, readWorkers: number): Promise<string> {
  tally = emptyTally();
  const budgetName = `${budgetMs === undefined ? 'the default time budget (5000 ms)' : `a time budget of ${budgetMs} ms`}, ${readWorkers ? `${readWorkers} read workers` : 'no read workers (every request on the main thread)'}`;
  const dir = mkdtempSync(join(tmpdir(), 'ehr-gym-soak-'));
  const db = join(dir, 'soak.sqlite');
  const loadAtStart = loadavg().map((l) => l.toFixed(2)).join(' ');
  const rss: { t: number; pid: number; mib: number }[] = [];
  let sampler: NodeJS.Timeout | undefined;
  try {
    const seedStarted = performance.now();
    current = await startServer(db, PATIENTS, budgetMs, readWorkers);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const list = await request('GET', `/fhir/Patient?_count=${PATIENTS}&_elements=id`);
    if (list.kind !== 'answer' || list.status !== 200) throw new Error(`listing patients failed: ${JSON.stringify(list).slice(0, 300)}`);
    const patients = ((JSON.parse(list.body) as { entry?: { resource: { id: string } }[] }).entry ?? []).map((e) => e.resource.id);
    // Each request alone on the idle server first, for scale: 20 light reads, then each heavy request once.
    const idleReads: number[] = [];
    for (let i = 0; i < 20; i++) {
      const outcome = await request('GET', `/fhir/Patient/${pick(patients)}`);
      if (outcome.kind === 'answer') idleReads.push(outcome.ms);
    }
    const alone: string[] = [];
    for (const heavy of HEAVY) {
      const outcome = await request(heavy.method, heavy.path, heavy.body);
      alone.push(`${heavy.name}: ${outcome.kind === 'answer' ? `${outcome.status} in ${outcome.ms.toFixed(0)} ms` : outcome.kind}`);
    }
    const bases: string[] = [];
    for (let i = 0; i < SESSIONS; i++) {
      const created = await request('POST', '/gym/sessions', {});
      if (created.kind !== 'answer' || created.status !== 201) throw new Error(`session ${i}: ${JSON.stringify(created).slice(0, 300)}`);
      bases.push(`/fhir/_session/${(JSON.parse(created.body) as { id: string }).id}`);
    }

    const t0 = performance.now();
    const until = t0 + SECONDS * 1000;
    sampler = setInterval(() => {
      const mib = rssMiB(current.pid);
      if (mib !== undefined) rss.push({ t: (performance.now() - t0) / 1000, pid: current.pid, mib });
    }, 1000);
    const workers = [
      ...bases.map((b) => sessionWorker(b, patients, until)),
      ...HEAVY.map((h) => heavyWorker(h, until)),
      probeWorker(patients, until),
    ];

    // Half-way: kill -9, then the same command on the same file.
    await sleep(KILL ? SECONDS * 500 : 0);
    const killedAt = KILL ? performance.now() : Infinity;
    const killedPid = current.pid;
    const acksBeforeKill = tally.acks.length;
    if (KILL) {
      await killHard(current);
      current = await startServer(db, PATIENTS, budgetMs, readWorkers);
    }
    const restartedAt = KILL ? performance.now() : Infinity;
    await Promise.all(workers);
    clearInterval(sampler);
    sampler = undefined;

    // Every write answered 200/201, before or after the kill, must be readable at the version it was answered with.
    let lost = 0;
    const lostExamples: string[] = [];
    const queue = [...tally.acks];
    await Promise.all(Array.from({ length: 16 }, async () => {
      for (let ack = queue.pop(); ack; ack = queue.pop()) {
        const outcome = await request('GET', `${ack.base}/${ack.type}/${ack.id}/_history/${ack.version}`);
        if (outcome.kind !== 'answer' || outcome.status !== 200) {
          lost++;
          if (lostExamples.length < 5) lostExamples.push(`${ack.type}/${ack.id}/_history/${ack.version}: ${outcome.kind === 'answer' ? outcome.status : outcome.kind}`);
        }
      }
    }));
    const sessionsAlive = (await Promise.all(bases.map((b) => request('GET', `/gym/sessions/${b.split('/').at(-1)}`)))).filter((o) => o.kind === 'answer' && o.status === 200).length;
    const restartMs = restartedAt - killedAt;

    // Light reads while the heavy workers ran: everything except the restart window.
    const during = tally.lightReads.filter(([start]) => start < killedAt || start > restartedAt).map(([, ms]) => ms);
    const rows = [...tally.byKind].sort(([a], [b]) => a.localeCompare(b)).map(([kind, e]) =>
      `| ${kind} | ${e.n} | ${[...e.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ')} | ${f1(percentile(e.ms, 0.5))} | ${f1(percentile(e.ms, 0.99))} | ${f1(Math.max(...e.ms))} |`);
    const lives = [...new Set(rss.map((s) => s.pid))].map((pid, i) => {
      const samples = rss.filter((s) => s.pid === pid);
      return `| ${i === 0 ? 'before the kill' : 'after the restart'} (pid ${pid}) | ${samples.length} | ${f1(samples[0].mib)} | ${f1(percentile(samples.map((s) => s.mib), 0.5))} | ${f1(Math.max(...samples.map((s) => s.mib)))} | ${f1(samples.at(-1)!.mib)} |`;
    });
    const timeline = Array.from({ length: Math.ceil(SECONDS / 5) }, (_, i) => {
      const window = rss.filter((s) => s.t >= i * 5 && s.t < (i + 1) * 5);
      return window.length ? `${i * 5}-${i * 5 + 5} s: ${f1(Math.max(...window.map((s) => s.mib)))}` : `${i * 5}-${i * 5 + 5} s: (down)`;
    });
    const p99 = percentile(during, 0.99);
    // The same split at the kill: after the restart the process is cold (first use builds its in-memory indexes).
    const before = tally.lightReads.filter(([start]) => start < killedAt).map(([, ms]) => ms);
    const after = tally.lightReads.filter(([start]) => start > restartedAt).map(([, ms]) => ms);
    const stats = (xs: number[]) => `${xs.length}, ${f1(percentile(xs, 0.5))}, ${f1(percentile(xs, 0.95))}, ${f1(percentile(xs, 0.99))}, ${f1(xs.length ? Math.max(...xs) : NaN)}`;
    return [
      `### Soak with ${budgetName}: ${SESSIONS} sessions, ${SECONDS} s mixed load, 3 heavy workers, \`kill -9\` at ${SECONDS / 2} s and restart`,
      '',
      `Server: bench/soak-child.ts (\`ehr-gym serve\` with a time budget argument) as a child process on a fresh SQLite file, seeded with ${PATIENTS} patients (${seedSeconds.toFixed(1)} s to seed and listen). ` +
        `Each session loops with a random pause (mean ${THINK_MS} ms): 40% read by id, 30% search, 20% write (POST, or PUT of its own earlier write), 10% transaction (Patient + Observation by urn:uuid). ` +
        `Three workers run the worst-case requests of issue 14 back to back on \`/fhir\`; a probe reads a Patient by id every 50 ms. ` +
        `At ${SECONDS / 2} s the server (pid ${killedPid}) gets SIGKILL and the same command restarts on the same file. Load average at start: ${loadAtStart}.`,
      '',
      `Alone on the idle server: a light read p50 ${f1(percentile(idleReads, 0.5))} ms (20 reads); ${alone.join('; ')}.`,
      '',
      '| figure | value |',
      '|---|---|',
      `| 5xx answers | ${tally.fiveXx.length}${tally.fiveXx.length ? ` (${tally.fiveXx.slice(0, 3).map((x) => `${x.status} ${x.what}`).join('; ')})` : ''} |`,
      `| hangs (no answer within ${HANG_MS / 1000} s) | ${tally.hangs.length} |`,
      `| acknowledged writes (200/201) | ${tally.acks.length} (${acksBeforeKill} before the kill) |`,
      `| acknowledged writes lost after the restart | ${lost}${lostExamples.length ? ` (${lostExamples.join('; ')})` : ''} |`,
      `| sessions still there after the restart | ${sessionsAlive} of ${SESSIONS} |`,
      `| connection errors (requests in flight at the kill or sent while down) | ${tally.connectionErrors} |`,
      `| kill to listening again | ${KILL ? `${(restartMs / 1000).toFixed(2)} s` : 'no kill (BENCH_SOAK_KILL=0)'} |`,
      `| light reads (GET by id) while heavy requests ran: count, p50, p95, p99, max (ms) | ${stats(during)} |`,
      ...(KILL ? [`| the same, before the kill / after the restart | ${stats(before)} / ${stats(after)} |`] : []),
      `| p99 of light reads under 100 ms (target) | ${p99 < 100 ? 'yes' : 'no'} |`,
      '',
      '| requests | answered | statuses | p50 ms | p99 ms | max ms |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
      'Server RSS (MiB, VmRSS sampled every second from /proc):',
      '',
      '| process | samples | first | median | peak | last |',
      '|---|---|---|---|---|---|',
      ...lives,
      '',
      `Peak RSS per 5 s: ${timeline.join(', ')}.`,
    ].join('\n');
  } finally {
    if (sampler) clearInterval(sampler);
    if (current) await stop(current);
    agent.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

// `tsx bench/soak.ts` runs it alone and prints the markdown.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchSoak());
  process.exit(0);
}
