// The audit log is bounded (issue 14, "Abuse of shared state": five rejected 10 MB bodies grew the database by 31 MB):
// a request body is kept whole only up to a limit (smaller for rejected requests), and one session's log never grows
// past its size limit; it then ends with one NOTE entry. Real socket, real SQLite.
import t from 'tap';
import { startGym } from './gym-harness.ts';

const FHIR = { 'content-type': 'application/fhir+json' };

/** Bytes the gym_audit rows of a sandbox hold in their text columns. */
function storedBytes(db: import('better-sqlite3').Database, sandbox: string): number {
  return (db.prepare(`SELECT coalesce(sum(length(CAST(path AS BLOB)) + length(CAST(query AS BLOB))
    + coalesce(length(CAST(request_body AS BLOB)), 0) + length(CAST(resource_ids AS BLOB))), 0) AS n FROM gym_audit WHERE sandbox = ?`).get(sandbox) as { n: number }).n;
}

t.test('rejected bodies: only a 4 KiB prefix is stored, marked as cut, with the size of the whole', async (t) => {
  const gym = await startGym(t, { adminToken: 'audit-bounds-token' });
  const address = await gym.app.listen({ port: 0, host: '127.0.0.1' });
  const s = await gym.createSession();
  // 1 MB of a Patient the validator refuses (gender is a code, not a number), three times in each log.
  const huge = JSON.stringify({ resourceType: 'Patient', gender: 42, name: [{ family: 'x'.repeat(1024 * 1024) }] });
  for (const base of [`/fhir/_session/${s.id}`, '/fhir']) {
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${address}${base}/Patient`, { method: 'POST', headers: FHIR, body: huge });
      t.equal(response.status, 400, `${base}: rejected`);
      await response.arrayBuffer();
    }
  }
  const entries = gym.sessions.audit.entries(s.id);
  t.equal(entries.length, 3);
  for (const entry of entries) {
    t.equal(entry.requestBody, undefined, 'no parsed body for a cut one');
    t.equal(entry.requestBodyTruncated?.bytes, Buffer.byteLength(huge), 'the size of what was sent');
    t.ok(Buffer.byteLength(entry.requestBodyTruncated!.prefix) <= 4096, 'at most 4 KiB kept');
    t.ok(huge.startsWith(entry.requestBodyTruncated!.prefix.slice(0, 100)), 'the start of what was sent');
  }
  for (const sandbox of [s.id, 'default']) {
    t.ok(storedBytes(gym.context.store.db, sandbox) < 3 * (4096 + 512), `${sandbox}: three 1 MB bodies cost the log under 14 KB`);
  }
  // Over HTTP, as graders and the operator read it.
  const log = await (await fetch(`${address}/gym/sessions/${s.id}/log`)).json();
  t.equal(log.entries[0].requestBodyTruncated.bytes, Buffer.byteLength(huge));
});

t.test('accepted bodies are kept whole up to the larger limit; a rejected body under 4 KiB is kept whole too', async (t) => {
  const gym = await startGym(t, { gym: { audit: { bodyBytes: 8 * 1024 } } });
  const address = await gym.app.listen({ port: 0, host: '127.0.0.1' });
  const s = await gym.createSession();
  const base = `${address}/fhir/_session/${s.id}`;
  const accepted = { resourceType: 'Patient', name: [{ family: 'y'.repeat(6000) }] };
  const rejectedSmall = { resourceType: 'Patient', gender: 42 };
  const acceptedTooBig = { resourceType: 'Patient', name: [{ family: 'z'.repeat(10_000) }] };
  const rejectedMid = { resourceType: 'Patient', gender: 42, name: [{ family: 'w'.repeat(6000) }] };
  for (const [body, status] of [[accepted, 201], [rejectedSmall, 400], [acceptedTooBig, 201], [rejectedMid, 400]] as const) {
    t.equal((await fetch(`${base}/Patient`, { method: 'POST', headers: FHIR, body: JSON.stringify(body) })).status, status);
  }
  const [a, b, c, d] = gym.sessions.audit.entries(s.id);
  t.same(a.requestBody, accepted, 'a 6 KB accepted body: whole, as JSON');
  t.same(b.requestBody, rejectedSmall, 'a small rejected body: whole');
  t.equal(c.requestBodyTruncated?.bytes, JSON.stringify(acceptedTooBig).length, 'a 10 KB accepted body over an 8 KiB limit: cut');
  t.equal(Buffer.byteLength(c.requestBodyTruncated!.prefix), 8 * 1024);
  t.equal(Buffer.byteLength(d.requestBodyTruncated!.prefix), 4 * 1024, 'a 6 KB rejected body: cut at 4 KiB');
});

t.test('a cut never splits a character', async (t) => {
  const gym = await startGym(t, { gym: { audit: { rejectedBodyBytes: 101 } } });
  const s = await gym.createSession();
  const body = { resourceType: 'Patient', gender: 42, name: [{ family: '\u00e9\u20ac\ud83d\ude00'.repeat(200) }] };
  await gym.json('POST', `/fhir/_session/${s.id}/Patient`, body);
  const [entry] = gym.sessions.audit.entries(s.id);
  t.ok(Buffer.byteLength(entry.requestBodyTruncated!.prefix) <= 101);
  t.notOk(entry.requestBodyTruncated!.prefix.includes('\ufffd'), 'no replacement character');
  t.ok(JSON.stringify(body).startsWith(entry.requestBodyTruncated!.prefix), 'a true prefix');
});

t.test('one session\'s log stops at its size limit with one NOTE entry; others keep logging; a reset starts it again', async (t) => {
  const limit = 20_000;
  const gym = await startGym(t, { gym: { audit: { maxBytesPerSession: limit } } });
  const address = await gym.app.listen({ port: 0, host: '127.0.0.1' });
  const a = await gym.createSession();
  const b = await gym.createSession();
  const padding = 'q'.repeat(900);
  for (let i = 0; i < 60; i++) {
    const response = await fetch(`${address}/fhir/_session/${a.id}/Patient?name=${padding}&n=${i}`);
    t.equal(response.status, 200);
    await response.arrayBuffer();
  }
  await (await fetch(`${address}/fhir/_session/${b.id}/Patient/p1`)).arrayBuffer();
  const log = (await (await fetch(`${address}/gym/sessions/${a.id}/log`)).json()).entries as any[];
  const last = log[log.length - 1];
  t.ok(log.length > 5 && log.length < 60, `some requests logged, then it stopped (${log.length} entries)`);
  t.equal(last.method, 'NOTE', 'the last entry is the marker');
  t.equal(last.status, 0);
  t.match(last.note, /limit of 20000 bytes/);
  t.equal(log.filter((e) => e.note !== undefined).length, 1, 'one marker');
  t.same(log.slice(0, -1).map((e) => Number(new URLSearchParams(e.query).get('n'))), log.slice(0, -1).map((_, i) => i),
    'the entries kept are the first requests, in order');
  t.ok(storedBytes(gym.context.store.db, a.id) <= limit, 'the stored rows stay under the limit');
  const summary = await (await fetch(`${address}/gym/sessions/${a.id}`)).json();
  t.equal(summary.counts.requests, log.length - 1, 'the marker is not counted as a request');
  t.equal(gym.sessions.audit.entries(b.id).length, 1, 'another session logs as before');

  t.equal((await fetch(`${address}/gym/sessions/${a.id}/reset`, { method: 'POST' })).status, 200);
  await (await fetch(`${address}/fhir/_session/${a.id}/Patient/p1`)).arrayBuffer();
  t.same(gym.sessions.audit.entries(a.id).map((e) => e.path), ['Patient/p1'], 'after a reset the log records again');
});

t.test('the size limit holds across a restart: a full log stays full', async (t) => {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'ehr-gym-audit-bounds-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const options = { dbPath: join(dir, 'gym.sqlite'), gym: { audit: { maxBytesPerSession: 5_000 } } };
  const first = await startGym(t, options);
  const s = await first.createSession();
  for (let i = 0; i < 20; i++) await first.json('GET', `/fhir/_session/${s.id}/Patient?name=${'r'.repeat(500)}`);
  const before = first.sessions.audit.entries(s.id).length;
  await first.app.close();
  const second = await startGym(t, options, []);
  await second.json('GET', `/fhir/_session/${s.id}/Patient/p1`);
  t.equal(second.sessions.audit.entries(s.id).length, before, 'nothing added after the marker');
});
