// Replicas behind nginx (issue 22 "Replicas beyond one machine"): two servers with their own databases, a real nginx
// in front configured by server/gym/replicas.ts, and clients that only know nginx's URL. Every request of a session
// must reach the replica that created it; an id naming no replica is a 404 OperationOutcome, not a proxy error.
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../../server/app.ts';
import { nginxConfig } from '../../../server/gym/replicas.ts';
import { isWellFormedSessionId, newSessionId } from '../../../server/gym/session-id.ts';

t.test('a replica puts its id in front of its session ids', async (t) => {
  const id = newSessionId('r7');
  t.match(id, /^r7\.[A-Za-z0-9_-]{24}$/);
  t.ok(isWellFormedSessionId(id));
  t.ok(isWellFormedSessionId(newSessionId()), 'ids without a replica stay valid');
  for (const bad of ['R7.' + id.slice(3), 'r7..' + id.slice(3), '.' + id.slice(3), 'a'.repeat(17) + '.' + id.slice(3), `r7.${id.slice(3, 26)}`]) {
    t.notOk(isWellFormedSessionId(bad), `'${bad}' is refused`);
  }
  t.throws(() => nginxConfig({ listen: '127.0.0.1:1', replicas: [{ id: 'R1', address: '127.0.0.1:2' }] }), /replica id/);
});

const nginx = spawnSync('nginx', ['-v']).error ? undefined : 'nginx';
if (!nginx && !process.env.CI) {
  t.pass('skipped: nginx is not installed (apt-get install nginx-light; .ci/run installs it)', { skip: true });
} else {
  t.test('through nginx, each session reaches the replica that holds it', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'ehr-gym-replicas-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const port = await freePort();
    const front = `http://127.0.0.1:${port}`;
    // Each replica its own (empty, in-memory) database; both tell clients nginx's URL.
    const replicas = [];
    for (const id of ['r1', 'r2']) {
      const { app } = buildApp({ baseUrl: front, gym: { replicaId: id } });
      t.teardown(() => app.close());
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      replicas.push({ id, address: address.replace('http://', '') });
    }
    const conf = join(dir, 'nginx.conf');
    writeFileSync(conf, nginxConfig({ listen: `127.0.0.1:${port}`, replicas, workerProcesses: 1 }));
    const proxy = spawn(nginx!, ['-p', `${dir}/`, '-c', conf, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proxy.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    t.teardown(() => new Promise<void>((resolve) => {
      if (proxy.exitCode !== null) return resolve();
      proxy.once('exit', () => resolve());
      proxy.kill('SIGTERM');
    }));
    await waitFor(() => fetch(`${front}/fhir/metadata`).then((r) => r.ok, () => false), () => stderr);

    const json = { 'content-type': 'application/json' };
    const sessions: { id: string; fhirBaseUrl: string }[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await fetch(`${front}/gym/sessions`, { method: 'POST', headers: json, body: '{}' });
      t.equal(res.status, 201);
      sessions.push((await res.json()) as { id: string; fhirBaseUrl: string });
    }
    const onR1 = sessions.filter((s) => s.id.startsWith('r1.')).length;
    t.ok(onR1 > 0 && onR1 < sessions.length, `new sessions spread over both replicas (${onR1} of ${sessions.length} on r1)`);
    t.ok(sessions.every((s) => s.fhirBaseUrl.startsWith(`${front}/fhir/_session/`)), 'each FHIR base is reached through nginx');

    for (const session of sessions) {
      const created = await fetch(`${session.fhirBaseUrl}/Patient`, {
        method: 'POST', headers: { 'content-type': 'application/fhir+json' },
        body: JSON.stringify({ resourceType: 'Patient', name: [{ family: session.id.slice(0, 2) }] }),
      });
      t.equal(created.status, 201, `${session.id}: create`);
      const { id } = (await created.json()) as { id: string };
      // With two replicas a misrouted request is a 404 half the time: 8 sessions x 3 reads would not all pass by luck.
      t.equal((await fetch(`${session.fhirBaseUrl}/Patient/${id}`)).status, 200, `${session.id}: read back`);
      const search = (await (await fetch(`${session.fhirBaseUrl}/Patient?family=${session.id.slice(0, 2)}`)).json()) as { total: number };
      t.equal(search.total, 1, `${session.id}: search finds it`);
      t.equal((await fetch(`${front}/gym/sessions/${session.id}`)).status, 200, `${session.id}: its gym summary`);
    }

    const stray = await fetch(`${front}/fhir/_session/r9.${'A'.repeat(24)}/Patient`);
    t.equal(stray.status, 404, 'a session id naming no replica is a 404');
    t.equal(((await stray.json()) as { resourceType: string }).resourceType, 'OperationOutcome');
  });
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

async function waitFor(ready: () => Promise<boolean>, log: () => string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nginx did not answer: ${log()}`);
}
