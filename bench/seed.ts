// Population benchmark (issue 4, section 8): resources/s generated (with validation) and loaded (validation + storage
// + search indexing, by the bulk path into a file database), peak RSS of each run, and the ratio to a raw SQLite
// bulk insert of the same JSON rows (the ceiling); then `ehr-gym serve` on a fresh database, from spawn to the first
// answered search (the "from nothing to serving" target). Each measurement runs in its own child process so its peak
// RSS is its own. Sizes: EHR_GYM_BENCH_SEED_GEN and EHR_GYM_BENCH_SEED_LOAD (default "1000,10000" each).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface RunResult {
  mode: 'generate' | 'load' | 'raw';
  patients: number;
  resources: number;
  seconds: number;
  cpuSeconds: number;
  peakRssMiB: number;
  /** raw mode: seconds spent inside the inserts only. */
  insertSeconds?: number;
}

const CHILD_FLAG = '--seed-bench-child';

async function child(mode: RunResult['mode'], patients: number, dir: string): Promise<RunResult> {
  const { generatePopulation } = await import('../seed/generate.ts');
  const { assertValid } = await import('../seed/load.ts');
  const { seedPopulation } = await import('../seed/index.ts');
  const { warmUpValidation } = await import('../resources/validation/validate.ts');
  const { Store } = await import('../resources/storage/store.ts');
  const { createSearchIndexer } = await import('../resources/search/index.ts');
  warmUpValidation();
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  let resources = 0;
  let insertSeconds: number | undefined;
  if (mode === 'generate') {
    for (const batch of generatePopulation({ patients, seed: 1 })) {
      for (const r of batch.resources) assertValid(r);
      resources += batch.resources.length;
    }
  } else if (mode === 'load') {
    const store = new Store({ path: join(dir, 'load.sqlite'), indexers: [createSearchIndexer()] });
    resources = seedPopulation({ store, patients, seed: 1 }).metadata.resources;
    store.close();
  } else {
    // The ceiling: the same JSON rows into one plain table, big transactions, no validation, no indexes.
    const store = new Store({ path: join(dir, 'raw.sqlite') });
    const insert = store.db.prepare('INSERT INTO resource_current (sandbox, type, id, version, last_updated, deleted, json) VALUES (?, ?, ?, 1, ?, 0, ?)');
    const lastUpdated = '2025-06-30T09:00:00.000Z';
    let rows: [string, string, string][] = [];
    insertSeconds = 0;
    const flush = () => {
      const t = performance.now();
      store.transaction(() => { for (const [type, id, json] of rows) insert.run('base', type, id, lastUpdated, json); });
      insertSeconds! += (performance.now() - t) / 1000;
      rows = [];
    };
    for (const batch of generatePopulation({ patients, seed: 1 })) {
      for (const r of batch.resources) rows.push([r.resourceType, r.id!, JSON.stringify(r)]);
      resources += batch.resources.length;
      if (rows.length >= 5000) flush();
    }
    flush();
    store.close();
  }
  const cpu = process.cpuUsage(cpu0);
  return {
    mode, patients, resources, seconds: (performance.now() - started) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6,
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024), insertSeconds,
  };
}

function run(mode: RunResult['mode'], patients: number): RunResult {
  const dir = mkdtempSync(join(tmpdir(), 'ehr-gym-bench-seed-'));
  try {
    const out = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), CHILD_FLAG, mode, String(patients), dir],
      { encoding: 'utf8', maxBuffer: 1 << 20, stdio: ['ignore', 'pipe', 'inherit'] });
    return JSON.parse(out.trim().split('\n').pop()!) as RunResult;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const sizes = (env: string | undefined, fallback: number[]) => (env ? env.split(',').map(Number).filter((n) => n > 0) : fallback);
const rate = (n: number, s: number) => Math.round(n / s).toLocaleString('en-US');

export async function benchSeed(): Promise<string> {
  const genSizes = sizes(process.env.EHR_GYM_BENCH_SEED_GEN, [1000, 10000]);
  const loadSizes = sizes(process.env.EHR_GYM_BENCH_SEED_LOAD, [1000, 10000]);
  const lines: string[] = ['## Synthetic population', ''];
  lines.push('Generation streams patient by patient (every resource validated). Loading is `seedPopulation` into a file',
    'database: a worker thread generates, validates and prepares batches (JSON and search index rows) while the main',
    'thread writes them (multi-row INSERTs, secondary indexes rebuilt at the end), 2000 resources per transaction;',
    'it includes the ~1.5k terminology resources. Rates are wall-clock; the CPU column is user+system time of the',
    'child process, both threads (above the wall time when both cores are busy).', '');
  lines.push('| run | patients | resources | resources/patient | wall s | resources/s (wall) | CPU s | resources/s (CPU) | peak RSS MiB |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  const row = (label: string, r: RunResult, seconds = r.seconds) => {
    lines.push(`| ${label} | ${r.patients} | ${r.resources} | ${(r.resources / r.patients).toFixed(0)} | ${seconds.toFixed(1)} | ${rate(r.resources, seconds)} | ${r.cpuSeconds.toFixed(1)} | ${rate(r.resources, r.cpuSeconds)} | ${r.peakRssMiB} |`);
    console.error(`bench seed: ${lines[lines.length - 1]}`); // long runs: show each row as it completes
  };
  for (const n of genSizes) row('generate + validate', run('generate', n));
  const ratios: string[] = [];
  const loads: RunResult[] = [];
  for (const n of loadSizes) {
    const load = run('load', n);
    loads.push(load);
    row('generate + validate + load + index', load);
    const raw = run('raw', n);
    row('raw SQLite insert of the same JSON rows (insert time only)', raw, raw.insertSeconds);
    ratios.push(`${n} patients: loading runs at ${((raw.insertSeconds! / load.seconds) * 100).toFixed(1)}% of the raw-insert ceiling (${rate(load.resources, load.seconds)} vs ${rate(raw.resources, raw.insertSeconds!)} resources/s)`);
  }
  const serve = await serveFromNothing();
  lines.push('', ...ratios.map((r) => `- ${r}`));
  const atTenK = loads.find((l) => l.patients === 10000);
  if (atTenK) {
    const perSecond = atTenK.resources / atTenK.seconds;
    lines.push(`- Target (issue 4): >= 20k resources/s loaded at 10k patients: ${perSecond >= 20000 ? 'met' : '**missed**'} (${rate(atTenK.resources, atTenK.seconds)}/s); peak RSS < 1.5 GB: ${atTenK.peakRssMiB < 1536 ? 'met' : '**missed**'} (${atTenK.peakRssMiB} MiB).`);
  }
  lines.push(`- From nothing to serving: \`ehr-gym serve\` on a fresh database built the default population (250 patients, seed 1) and answered its first search ${serve.toFixed(1)} s after spawn (target < 60 s: ${serve < 60 ? 'met' : '**missed**'}).`);
  lines.push('- Peak RSS stays flat as N grows (streaming generation, fixed-size batches): compare the rows of each mode.');
  return lines.join('\n') + '\n';
}

/** Seconds from spawning `ehr-gym serve` on a fresh database to its first answered search. */
async function serveFromNothing(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'ehr-gym-bench-serve-'));
  const bin = fileURLToPath(new URL('../bin/ehr-gym.ts', import.meta.url));
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', bin, 'serve', '--port', '0', '--db', join(dir, 'ehr-gym.sqlite')], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const base = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /(http:\/\/\S+\/fhir)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`ehr-gym serve exited (${code}) before serving`)));
    });
    const res = await fetch(`${base}/Patient?_count=1`);
    if (res.status !== 200) throw new Error(`first search answered ${res.status}`);
    await res.arrayBuffer();
    const seconds = (performance.now() - started) / 1000;
    console.error(`bench seed: from nothing to serving in ${seconds.toFixed(1)} s`);
    return seconds;
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === CHILD_FLAG) {
  const [, , , mode, patients, dir] = process.argv;
  const result = await child(mode as RunResult['mode'], Number(patients), dir);
  console.log(JSON.stringify(result));
}
