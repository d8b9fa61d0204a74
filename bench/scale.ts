// Scale-out benchmark (issue 22 "Replicas beyond one machine"): nginx (Debian's package) in front of 1, then 2 replicas
// of the server, each a child process with its own copy of the same database, configured by server/gym/replicas.ts as
// `ehr-gym nginx-config` writes it. The 64-session mixed load of bench/sessions.ts (50% read, 30% search, 20% create)
// runs through nginx only; the table gives throughput and p99 per replica count. On one machine the replicas share
// its cores with nginx and the load generator, so the ratio shows the routing works and what a second process adds
// here; on several machines each replica has its own.
// Settings (environment): BENCH_SCALE_PATIENTS (1000: stand-in base of bench/search-population.ts), BENCH_SCALE_SECONDS (10).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { nginxConfig } from '../server/gym/replicas.ts';
import { buildBase, startChild, throughput } from './sessions.ts';

const PATIENTS = Number(process.env.BENCH_SCALE_PATIENTS ?? 1000);
const SECONDS = Number(process.env.BENCH_SCALE_SECONDS ?? 10);
const SESSIONS = 64;

export async function benchScale(): Promise<string> {
  const nginx = ['nginx', '/usr/sbin/nginx'].find((cmd) => !spawnSync(cmd, ['-v']).error);
  if (!nginx) return '## Replicas behind nginx\n\n_Not run: nginx is not installed (apt-get install nginx)._';
  const dir = mkdtempSync(join(tmpdir(), 'ehr-gym-bench-scale-'));
  const load = loadavg()[0];
  const rows: { replicas: number; rps: number; p99: number; failed: number }[] = [];
  try {
    const base = buildBase(dir, PATIENTS);
    for (const count of [1, 2]) {
      const port = await freePort();
      const front = `http://127.0.0.1:${port}`;
      const servers = [];
      const replicas = [];
      let proxy: ChildProcess | undefined;
      try {
        for (let i = 1; i <= count; i++) {
          const db = join(dir, `r${count}-${i}.sqlite`);
          copyFileSync(base.path, db);
          const server = await startChild(db, 0, { id: `r${i}`, baseUrl: front });
          servers.push(server);
          replicas.push({ id: `r${i}`, address: server.address.replace('http://', '') });
        }
        const conf = join(dir, `nginx-${count}.conf`);
        writeFileSync(conf, nginxConfig({ listen: `127.0.0.1:${port}`, replicas }));
        proxy = spawn(nginx, ['-p', `${dir}/`, '-c', conf, '-g', 'daemon off;'], { stdio: 'ignore' });
        await waitUntil(() => fetch(`${front}/fhir/metadata`).then((r) => r.ok, () => false));
        const result = await throughput(front, PATIENTS, SESSIONS, SECONDS);
        rows.push({ replicas: count, ...result });
      } finally {
        if (proxy && proxy.exitCode === null) await new Promise<void>((resolve) => { proxy!.once('exit', () => resolve()); proxy!.kill('SIGTERM'); });
        for (const server of servers) await server.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const [one, two] = rows;
  return [
    '## Replicas behind nginx',
    '',
    `nginx (${spawnSync(nginx, ['-v'], { encoding: 'utf8' }).stderr.trim()}) configured by server/gym/replicas.ts in front of 1, then 2 replicas (child processes, each its own copy of the ${PATIENTS}-patient stand-in base, no read workers), on this ${availableParallelism()}-CPU machine with the load generator; ${SESSIONS} sessions (created through nginx, so spread over the replicas), ${SESSIONS} concurrent clients, 50% read / 30% search / 20% create, ${SECONDS} s. 1-minute load average at start ${load.toFixed(1)}.`,
    '',
    '| replicas | requests/s | p99 ms | failed |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.replicas} | ${r.rps.toFixed(0)} | ${r.p99.toFixed(1)} | ${r.failed} |`),
    '',
    `2 replicas / 1: **${(two.rps / one.rps).toFixed(2)}** throughput (every request reached its session's replica: ${two.failed} failed).`,
  ].join('\n');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitUntil(ready: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('nginx did not answer');
}

// `tsx bench/scale.ts` runs it alone and prints the markdown.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchScale());
}
