// Core server benchmark (issue 2 section 8): over HTTP with autocannon, in one run - a bare Fastify route returning
// a fixed 1 KB JSON (the ceiling of this machine), read-by-id, create of a valid Observation referencing an existing
// Patient, and a 10-entry transaction. req/s and p50/p99 latency, each as a ratio to the ceiling.
//
// The servers run in a child process (this file with --serve-core), so autocannon and the server each get a core;
// a same-process comparison is measured too and reported, because on 2 cores it is the placement that decides
// whether the ceiling measures the server or the load generator.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import type { Bundle, Observation, Patient } from '@medplum/fhirtypes';
import { buildApp } from '../server/app.ts';

const SECONDS = Number(process.env.BENCH_CORE_SECONDS ?? 5);
const WARMUP_SECONDS = 1;
const REPEATS = Number(process.env.BENCH_CORE_REPEATS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CORE_CONNECTIONS ?? 10);
const TARGETS: Record<string, number> = { read: 0.5, create: 0.25 };

/** A fixed JSON document of about 1 KB: the ceiling's payload, and about the size of the Patient that is read. */
export const CEILING_BODY = JSON.stringify({
  resourceType: 'Parameters',
  parameter: Array.from({ length: 14 }, (_, i) => ({ name: `p${i}`, valueString: `value-${i}-${'x'.repeat(40)}` })),
});

function patient(): Patient {
  return {
    resourceType: 'Patient',
    identifier: [{ system: 'urn:oid:ehr-gym:mrn', value: 'MRN100001' }],
    active: true,
    name: [{ use: 'official', family: 'Kowalski', given: ['Anna', 'Maria'] }],
    telecom: [{ system: 'phone', value: '555-0100', use: 'home' }, { system: 'email', value: 'anna.kowalski@example.org' }],
    gender: 'female',
    birthDate: '1961-04-12',
    address: [{ use: 'home', line: ['12 Orchard Lane', 'Apt 4'], city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' }],
    maritalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-MaritalStatus', code: 'M', display: 'Married' }] },
    communication: [{ language: { coding: [{ system: 'urn:ietf:bcp:47', code: 'en-US', display: 'English (United States)' }] }, preferred: true }],
    text: { status: 'generated', div: '<div xmlns="http://www.w3.org/1999/xhtml">Anna Maria Kowalski, female, born 1961-04-12</div>' },
  };
}

function observation(patientId: string): Observation {
  return {
    resourceType: 'Observation',
    status: 'final',
    category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }],
    code: { coding: [{ system: 'http://loinc.org', code: '2823-3', display: 'Potassium [Moles/volume] in Serum or Plasma' }] },
    subject: { reference: `Patient/${patientId}` },
    effectiveDateTime: '2023-11-13T08:00:00Z',
    valueQuantity: { value: 4.1, unit: 'mmol/L', system: 'http://unitsofmeasure.org', code: 'mmol/L' },
  };
}

function transactionBundle(patientId: string): Bundle {
  return {
    resourceType: 'Bundle',
    type: 'transaction',
    entry: Array.from({ length: 10 }, (_, i) => ({
      fullUrl: `urn:uuid:00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      resource: { ...observation(patientId), valueQuantity: { value: 3.5 + i / 10, unit: 'mmol/L', system: 'http://unitsofmeasure.org', code: 'mmol/L' } },
      request: { method: 'POST' as const, url: 'Observation' },
    })),
  };
}

interface Servers {
  ceilingUrl: string;
  fhirUrl: string;
  patientId: string;
  close(): Promise<void>;
}

/** The two servers: a bare Fastify route (no FHIR parsers or hooks) and the FHIR app on a WAL SQLite file. */
async function startServers(dbPath: string): Promise<Servers> {
  const bare = Fastify({ logger: false });
  bare.get('/ceiling', (_req, reply) => {
    reply.type('application/json; charset=utf-8').send(CEILING_BODY);
  });
  const ceilingAddress = await bare.listen({ port: 0, host: '127.0.0.1' });
  const { app } = buildApp({ dbPath });
  const fhirAddress = await app.listen({ port: 0, host: '127.0.0.1' });
  const created = await app.inject({ method: 'POST', url: '/fhir/Patient', headers: { 'content-type': 'application/fhir+json' }, payload: JSON.stringify(patient()) });
  if (created.statusCode !== 201) throw new Error(`seeding the Patient failed: ${created.statusCode} ${created.body}`);
  return {
    ceilingUrl: `${ceilingAddress}/ceiling`,
    fhirUrl: `${fhirAddress}/fhir`,
    patientId: (JSON.parse(created.body) as Patient).id!,
    close: async () => {
      await bare.close();
      await app.close();
    },
  };
}

/** Start the servers in a child process (this file, --serve-core) and read their addresses from its stdout. */
async function startChildServers(dbPath: string): Promise<Servers & { child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve-core', dbPath], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const info = JSON.parse(line) as Omit<Servers, 'close'>;
  return {
    ...info,
    child,
    close: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** Status of the first response, to tell a pending (501) interaction from a working one. */
  status?: number;
}

type Scenario = { method: 'GET' | 'POST'; url: string; body?: string; headers?: Record<string, string> };

/**
 * One autocannon run. Latency percentiles are computed here from each 2xx response's time in fractional ms:
 * autocannon's own histogram truncates to whole milliseconds, which makes sub-millisecond reads all "0".
 */
async function cannon(s: Scenario, seconds: number): Promise<Measure> {
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url: s.url, method: s.method, body: s.body, headers: s.headers, connections: CONNECTIONS, duration: seconds },
      (err, res: autocannon.Result) => (err ? reject(err) : resolve(res)),
    );
    instance.on('response', (_client, status, _bytes, responseTime) => {
      if (status >= 200 && status < 300) latencies.push(responseTime);
    });
  });
  latencies.sort((a, b) => a - b);
  const at = (p: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] : 0);
  return { rps: result.requests.average, p50: at(0.5), p99: at(0.99), non2xx: result.non2xx, errors: result.errors };
}

interface Row {
  name: string;
  label: string;
  /** HTTP status of a probe request; a 4xx/5xx (e.g. 501 while an interaction is pending) skips the row. */
  status: number;
  runs: Measure[];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Rounds: in each round every scenario runs once (ceiling first), so each ratio compares runs made seconds apart.
 * On a shared 2-core machine the load drifts; the ratio of the median round is steadier than medians taken apart.
 */
async function measureAll(list: [string, Scenario][]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [label, s] of list) {
    const probe = await fetch(s.url, { method: s.method, body: s.body, headers: s.headers });
    await probe.arrayBuffer();
    rows.push({ name: label.split(' ')[0], label, status: probe.status, runs: [] });
    if (probe.status < 300) await cannon(s, WARMUP_SECONDS);
  }
  for (let round = 0; round < REPEATS; round++) {
    for (const [i, [, s]] of list.entries()) if (rows[i].status < 300) rows[i].runs.push(await cannon(s, SECONDS));
  }
  return rows;
}

function scenarios(servers: Servers): [label: string, Scenario][] {
  const json = { 'content-type': 'application/fhir+json' };
  return [
    ['ceiling: bare Fastify route, fixed 1 KB JSON', { method: 'GET', url: servers.ceilingUrl }],
    ['read Patient/[id] (~1 KB)', { method: 'GET', url: `${servers.fhirUrl}/Patient/${servers.patientId}` }],
    ['create Observation (validated, reference checked, indexed)', { method: 'POST', url: `${servers.fhirUrl}/Observation`, headers: json, body: JSON.stringify(observation(servers.patientId)) }],
    ['transaction of 10 Observation POSTs', { method: 'POST', url: servers.fhirUrl, headers: json, body: JSON.stringify(transactionBundle(servers.patientId)) }],
  ];
}

const fmt = (n: number, digits = 0) => n.toFixed(digits);

export async function benchCore(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'ehr-gym-bench-core-'));
  const lines: string[] = [];
  try {
    const child = await startChildServers(join(dir, 'child.sqlite'));
    let rows: Row[];
    try {
      rows = await measureAll(scenarios(child));
    } finally {
      await child.close();
    }

    // Placement check: ceiling and read again with the servers in this process, sharing autocannon's event loop.
    const local = await startServers(join(dir, 'local.sqlite'));
    let placement: Row[];
    try {
      placement = await measureAll(scenarios(local).slice(0, 2));
    } finally {
      await local.close();
    }

    const ceiling = rows[0];
    lines.push('## Core server', '');
    lines.push(
      `autocannon, ${CONNECTIONS} connections; per scenario a ${WARMUP_SECONDS} s warm-up, then ${REPEATS} rounds in which every ` +
        `scenario runs ${SECONDS} s (ceiling first). Servers in a child process (FHIR app on a WAL SQLite file), autocannon in the ` +
        'parent. Figures are medians over rounds; a ratio is the median over rounds of (scenario / ceiling of the same round): ' +
        'req/s ratio higher is better, latency ratio lower is better. Latencies are of 2xx responses, in fractional ms.',
      '',
    );
    lines.push('| scenario | req/s | p50 ms | p99 ms | req/s / ceiling | p50 / ceiling | p99 / ceiling | target | non-2xx |');
    lines.push('|---|---|---|---|---|---|---|---|---|');
    for (const row of rows) {
      const target = TARGETS[row.name];
      if (row.status >= 300) {
        lines.push(`| ${row.label} | pending (HTTP ${row.status}) | | | | | | ${target ? `>= ${target}` : ''} | |`);
        continue;
      }
      const ratio = (pick: (m: Measure) => number) =>
        median(row.runs.map((m, i) => (pick(ceiling.runs[i]) > 0 ? pick(m) / pick(ceiling.runs[i]) : NaN)));
      const rps = ratio((m) => m.rps);
      const verdict = target === undefined ? '' : `>= ${target}: ${rps >= target ? 'met' : '**missed**'}`;
      lines.push(
        `| ${row.label} | ${fmt(median(row.runs.map((m) => m.rps)))} | ${fmt(median(row.runs.map((m) => m.p50)), 2)} | ` +
          `${fmt(median(row.runs.map((m) => m.p99)), 2)} | ${fmt(rps, 2)} | ${fmt(ratio((m) => m.p50), 2)} | ${fmt(ratio((m) => m.p99), 2)} | ` +
          `${verdict} | ${row.runs.reduce((n, m) => n + m.non2xx + m.errors, 0)} |`,
      );
    }
    const load = loadavg()[0];
    lines.push('', `1-minute load average at the end: ${load.toFixed(2)} on ${cpus().length} cores` +
      (load > cpus().length ? ' - the machine was busy with other work, so absolute figures are depressed; the ratios compare runs made seconds apart.' : '.'));
    const tx = rows.find((r) => r.name === 'transaction');
    if (tx && tx.runs.length) lines.push('', `Transaction entries written per second: ${fmt(10 * median(tx.runs.map((m) => m.rps)))}.`);
    lines.push('', 'Placement: the same ceiling and read with the servers in the same process as autocannon (median req/s).', '');
    lines.push('| scenario | same process | child process |', '|---|---|---|');
    for (const [i, row] of placement.entries()) {
      lines.push(`| ${row.label} | ${fmt(median(row.runs.map((m) => m.rps)))} | ${fmt(median(rows[i].runs.map((m) => m.rps)))} |`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return lines.join('\n');
}

// Child mode: start the servers on the database given after --serve-core and print their addresses as one JSON line.
if (process.argv[2] === '--serve-core' && process.argv[1] === fileURLToPath(import.meta.url)) {
  const servers = await startServers(process.argv[3]);
  process.stdout.write(`${JSON.stringify({ ceilingUrl: servers.ceilingUrl, fhirUrl: servers.fhirUrl, patientId: servers.patientId })}\n`);
  process.once('SIGTERM', () => void servers.close().then(() => process.exit(0)));
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await benchCore());
}
