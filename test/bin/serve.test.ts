// `ehr-gym serve` as a user runs it: a real process on a real port, structured logs at the chosen level, and a clean
// stop on SIGTERM (exit 0, the database closed: SQLite removes the WAL file when its last connection closes).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

t.test('serve logs requests as JSON at --log-level info and stops cleanly on SIGTERM', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ehr-gym-serve-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = path.join(dir, 'gym.sqlite');
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/ehr-gym.ts', 'serve', '--db', db, '--patients', '2', '--port', '0', '--log-level', 'info'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
  child.stderr.resume();
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL'); });

  const base = await new Promise<string>((resolve, reject) => {
    const look = (): void => {
      const match = /FHIR R4 server at (http:\/\/\S+)\/fhir/.exec(stdout);
      if (match) resolve(match[1]);
    };
    child.stdout.on('data', look);
    child.on('exit', (code) => reject(new Error(`serve exited (${code}) before listening:\n${stdout}`)));
  });
  const response = await fetch(`${base}/fhir/Patient?_count=1`);
  t.equal(response.status, 200);
  await response.text();
  t.ok(existsSync(`${db}-wal`), 'the database is open in WAL mode while serving');

  child.kill('SIGTERM');
  t.equal(await exited, 0, 'SIGTERM exits 0');
  const lines = stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg?: string; req?: { url?: string }; signal?: string });
  t.ok(lines.some((l) => l.req?.url === '/fhir/Patient?_count=1'), 'the request is logged as a JSON line');
  t.ok(lines.some((l) => l.signal === 'SIGTERM'), 'the stop is logged');
  t.notOk(existsSync(`${db}-wal`), 'the database was closed');
});
