// The session manager through the gym HTTP API: create, list, get, reset, delete, submit, expiry, limits, restart.
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basePatients, seedBase, startGym } from './gym-harness.ts';
import { buildApp } from '../../../server/app.ts';

// Listing every session is for the operator (test/server/gym/operator-token.test.ts); these tests list as the operator.
const adminToken = 'sessions-test-operator-token';
const operator = { authorization: `Bearer ${adminToken}` };

const fixture = {
  resourceType: 'Bundle', type: 'transaction',
  entry: [
    { fullUrl: 'urn:uuid:6c1b1f8e-0000-4000-8000-000000000001', resource: { resourceType: 'Patient', name: [{ family: 'Fixture' }] }, request: { method: 'POST', url: 'Patient' } },
    { resource: { resourceType: 'Observation', id: 'fx-obs', status: 'final', code: { text: 'Magnesium' }, subject: { reference: 'urn:uuid:6c1b1f8e-0000-4000-8000-000000000001' } },
      request: { method: 'PUT', url: 'Observation/fx-obs' } },
    { resource: { resourceType: 'Patient', id: 'p2', name: [{ family: 'Brown-Fixture' }] }, request: { method: 'PUT', url: 'Patient/p2' } },
  ],
};

t.test('POST /gym/sessions returns id, FHIR base, clock and tools; the session is a working FHIR base', async (t) => {
  const gym = await startGym(t);
  const rowsBefore = gym.context.store.db.prepare('SELECT count(*) AS n FROM resource_history').get() as { n: number };
  const res = await gym.json('POST', '/gym/sessions', { now: '2023-11-13T10:15:00+00:00', task: 'hypokalemia', variant: 'v1' }, { 'content-type': 'application/json' });
  t.equal(res.status, 201);
  const s = res.body;
  t.match(s.id, /^[A-Za-z0-9_-]{24}$/);
  t.equal(s.fhirBaseUrl, `http://localhost:80/fhir/_session/${s.id}`);
  t.equal(s.now, '2023-11-13T10:15:00.000Z');
  t.equal(s.task, 'hypokalemia');
  t.equal(s.variant, 'v1');
  t.equal(res.headers.location, `http://localhost:80/gym/sessions/${s.id}`);
  t.same(s.tools.map((x: any) => x.function.name), ['fhir_search', 'fhir_read', 'fhir_create', 'fhir_update', 'fhir_patch', 'fhir_delete', 'fhir_history',
    'terminology_search', 'terminology_lookup', 'run_view', 'sql_query', 'evidence_search', 'finish']);
  // Creating writes no resource rows (O(1): only the metadata row).
  const rowsAfter = gym.context.store.db.prepare('SELECT count(*) AS n FROM resource_history').get() as { n: number };
  t.equal(rowsAfter.n, rowsBefore.n);
  t.equal(gym.context.store.countIn(s.id), 0);

  const read = await gym.json('GET', `/fhir/_session/${s.id}/Patient/p1`);
  t.equal(read.status, 200);
  t.equal(read.body.name[0].family, 'Alvarez');
  const meta = await gym.json('GET', `/fhir/_session/${s.id}/metadata`);
  t.equal(meta.status, 200);
  t.equal(meta.body.resourceType, 'CapabilityStatement');
});

t.test('creation validates its inputs', async (t) => {
  const gym = await startGym(t, { adminToken });
  for (const [body, expression] of [
    [{ now: '2023-11-13' }, 'now'],
    [{ now: '2023-11-13T10:15:00' }, 'now'],
    [{ now: 'yesterday' }, 'now'],
    [{ task: 7 }, 'task'],
    [{ fixture: { resourceType: 'Bundle', type: 'batch', entry: [] } }, 'fixture'],
    [{ fixture: { resourceType: 'Patient' } }, 'fixture'],
    [{ toolOptions: { maxResultChars: 5 } }, 'toolOptions.maxResultChars'],
    [{ toolOptions: { colour: 'red' } }, 'toolOptions'],
  ] as const) {
    const res = await gym.json('POST', '/gym/sessions', body, { 'content-type': 'application/json' });
    t.equal(res.status, 400, JSON.stringify(body));
    t.equal(res.body.resourceType, 'OperationOutcome');
    t.same(res.body.issue[0].expression, [expression]);
  }
  const badFormat = await gym.json('POST', '/gym/sessions?format=xml', {}, { 'content-type': 'application/json' });
  t.equal(badFormat.status, 400);
  t.equal((await gym.json('GET', '/gym/sessions', undefined, operator)).body.sessions.length, 0, 'no session left behind by a failed create');
});

t.test('a fixture is applied into the overlay only, and reset re-applies it', async (t) => {
  const gym = await startGym(t);
  const a = await gym.createSession({ now: '2024-01-01T00:00:00Z', fixture });
  const b = await gym.createSession();
  const fxA = await gym.json('GET', `/fhir/_session/${a.id}/Observation/fx-obs`);
  t.equal(fxA.status, 200);
  t.equal(fxA.body.meta.lastUpdated.slice(0, 10), '2024-01-01', 'fixture times come from the session clock');
  t.equal((await gym.json('GET', `/fhir/_session/${a.id}/Patient/p2`)).body.name[0].family, 'Brown-Fixture');
  t.equal((await gym.json('GET', `/fhir/_session/${b.id}/Observation/fx-obs`)).status, 404);
  t.equal((await gym.json('GET', `/fhir/_session/${b.id}/Patient/p2`)).body.name[0].family, 'Brown');
  t.equal((await gym.json('GET', '/fhir/Observation/fx-obs')).status, 404);
  t.equal(gym.context.store.currentIn('base', 'Patient', 'p2')!.version, 1, 'the base is untouched');

  // The agent's writes, then reset: writes and log gone, fixture back, clock rewound.
  await gym.json('DELETE', `/fhir/_session/${a.id}/Observation/fx-obs`);
  const created = await gym.json('POST', `/fhir/_session/${a.id}/Patient`, { resourceType: 'Patient', name: [{ family: 'Agent' }] });
  t.equal(created.status, 201);
  const reset = await gym.json('POST', `/gym/sessions/${a.id}/reset`);
  t.equal(reset.status, 200);
  t.equal(reset.body.counts.requests, 0);
  t.equal((await gym.json('GET', `/fhir/_session/${a.id}/Observation/fx-obs`)).status, 200);
  t.equal((await gym.json('GET', `/fhir/_session/${a.id}/Patient/${created.body.id}`)).status, 404);
  const again = await gym.json('GET', `/fhir/_session/${a.id}/Observation/fx-obs`);
  t.equal(again.body.meta.versionId, '1');
  t.equal(again.body.meta.lastUpdated.slice(0, 10), '2024-01-01');
  t.same((await gym.json('GET', `/gym/sessions/${a.id}/changes`)).body.changes, []);
});

t.test('a fixture the transaction rejects is a 400 and leaves no session or rows', async (t) => {
  const gym = await startGym(t, { adminToken });
  const bad = {
    resourceType: 'Bundle', type: 'transaction',
    entry: [
      { resource: { resourceType: 'Patient', id: 'ok', name: [{ family: 'Fine' }] }, request: { method: 'PUT', url: 'Patient/ok' } },
      { resource: { resourceType: 'Observation', status: 'not-a-status', code: { text: 'x' } }, request: { method: 'POST', url: 'Observation' } },
    ],
  };
  const res = await gym.json('POST', '/gym/sessions', { fixture: bad }, { 'content-type': 'application/json' });
  t.equal(res.status, 400);
  t.equal(res.body.resourceType, 'OperationOutcome');
  t.equal((await gym.json('GET', '/gym/sessions', undefined, operator)).body.sessions.length, 0);
  const rows = gym.context.store.db.prepare("SELECT count(*) AS n FROM resource_current WHERE sandbox NOT IN ('base')").get() as { n: number };
  t.equal(rows.n, 0);
});

t.test('list, get with counts, submit, delete', async (t) => {
  const gym = await startGym(t, { adminToken });
  const a = await gym.createSession({ task: 't1' });
  const b = await gym.createSession();
  const list = (await gym.json('GET', '/gym/sessions', undefined, operator)).body.sessions;
  t.same(list.map((s: any) => s.id).sort(), [a.id, b.id].sort());

  await gym.json('GET', `/fhir/_session/${a.id}/Patient/p1`);
  await gym.json('PUT', `/fhir/_session/${a.id}/Patient/p1`, { ...basePatients[0], gender: 'other' });
  const got = (await gym.json('GET', `/gym/sessions/${a.id}`)).body;
  t.equal(got.state, 'active');
  t.same(got.counts, { requests: 2, writeRequests: 1, overlayResources: 1 });
  t.equal(got.task, 't1');

  t.equal((await gym.json('POST', `/gym/sessions/${a.id}/submit`, { files: {} }, { 'content-type': 'application/json' })).status, 400, 'answer required');
  t.equal((await gym.json('POST', `/gym/sessions/${a.id}/submit`, { answer: 'x', files: { 'a.txt': 3 } }, { 'content-type': 'application/json' })).status, 400);
  const submitted = await gym.json('POST', `/gym/sessions/${a.id}/submit`, { answer: { potassium: 3.1 }, files: { 'note.txt': 'K low' } }, { 'content-type': 'application/json' });
  t.equal(submitted.status, 200);
  t.same(submitted.body.submission.answer, { potassium: 3.1 });
  const after = (await gym.json('GET', `/gym/sessions/${a.id}`)).body;
  t.equal(after.state, 'submitted');
  t.same(after.submission.files, { 'note.txt': 'K low' });

  t.equal((await gym.json('DELETE', `/gym/sessions/${a.id}`)).status, 204);
  t.equal((await gym.json('GET', `/gym/sessions/${a.id}`)).status, 404);
  t.equal((await gym.json('GET', `/fhir/_session/${a.id}/Patient/p1`)).status, 404);
  t.equal((await gym.json('DELETE', `/gym/sessions/${a.id}`)).status, 404);
  t.equal(gym.context.store.countIn(a.id), 0, 'its overlay rows are gone');
  t.same(gym.sessions.audit.entries(a.id), [], 'its audit rows are gone');
  t.same((await gym.json('GET', '/gym/sessions', undefined, operator)).body.sessions.map((s: any) => s.id), [b.id]);
});

t.test('the default session (/fhir) is addressable as "default" but cannot be deleted', async (t) => {
  const gym = await startGym(t, { adminToken });
  await gym.json('POST', '/fhir/Patient', { resourceType: 'Patient', name: [{ family: 'Plain' }] });
  const got = await gym.json('GET', '/gym/sessions/default');
  t.equal(got.status, 200);
  t.equal(got.body.fhirBaseUrl, 'http://localhost:80/fhir');
  t.equal(got.body.counts.writeRequests, 1);
  t.equal((await gym.json('DELETE', '/gym/sessions/default')).status, 405);
  t.equal((await gym.json('GET', '/fhir/_session/default/Patient/p1')).status, 404, 'the default session is not a session base');
  t.equal((await gym.json('GET', '/gym/sessions/default/changes', undefined, operator)).body.changes.length, 1, 'its changes, to the operator');
});

t.test('a flood of creations is bounded by maxSessions with a 429 OperationOutcome', async (t) => {
  const gym = await startGym(t, { adminToken, gym: { maxSessions: 3 } });
  for (let i = 0; i < 3; i++) await gym.createSession();
  const res = await gym.json('POST', '/gym/sessions', {}, { 'content-type': 'application/json' });
  t.equal(res.status, 429);
  t.equal(res.body.resourceType, 'OperationOutcome');
  t.equal(res.body.issue[0].code, 'throttled');
  t.ok(Number(res.headers['retry-after']) > 0);
  const first = (await gym.json('GET', '/gym/sessions', undefined, operator)).body.sessions[0].id;
  await gym.json('DELETE', `/gym/sessions/${first}`);
  t.equal((await gym.json('POST', '/gym/sessions', {}, { 'content-type': 'application/json' })).status, 201, 'room again after a delete');
});

t.test('idle sessions expire after the TTL; activity keeps a session alive', async (t) => {
  let wall = Date.parse('2030-01-01T00:00:00Z');
  const gym = await startGym(t, { adminToken, gym: { idleTtlMs: 60_000, sweepIntervalMs: 0, wallTime: () => wall } });
  const idle = await gym.createSession();
  const busy = await gym.createSession();
  await gym.json('PUT', `/fhir/_session/${idle.id}/Patient/p9`, { resourceType: 'Patient', id: 'p9' });
  wall += 40_000;
  await gym.json('GET', `/fhir/_session/${busy.id}/Patient/p1`);
  wall += 30_000;
  t.same((await gym.json('GET', '/gym/sessions', undefined, operator)).body.sessions.map((s: any) => s.id), [busy.id], 'the idle one is swept');
  t.equal((await gym.json('GET', `/fhir/_session/${idle.id}/Patient/p1`)).status, 404);
  t.equal(gym.context.store.countIn(idle.id), 0, 'its rows went with it');
  t.equal((await gym.json('GET', `/fhir/_session/${busy.id}/Patient/p1`)).status, 200);
});

t.test('sessions survive a restart over the same database file; their clock resumes after their last write', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ehr-gym-sessions-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const dbPath = join(dir, 'gym.sqlite');
  const first = buildApp({ dbPath });
  seedBase(first.context.store, basePatients);
  const created = await first.app.inject({ method: 'POST', url: '/gym/sessions', payload: { now: '2023-11-13T10:15:00Z' } });
  const id = created.json().id as string;
  const write = await first.app.inject({ method: 'PUT', url: `/fhir/_session/${id}/Patient/p1`, headers: { 'content-type': 'application/fhir+json' }, payload: { ...basePatients[0], gender: 'other' } });
  const firstStamp = write.json().meta.lastUpdated as string;
  await first.app.close();

  const second = buildApp({ dbPath });
  t.teardown(() => second.app.close());
  const read = await second.app.inject({ method: 'GET', url: `/fhir/_session/${id}/Patient/p1` });
  t.equal(read.statusCode, 200);
  t.equal(read.json().gender, 'other');
  const again = await second.app.inject({ method: 'PUT', url: `/fhir/_session/${id}/Patient/p1`, headers: { 'content-type': 'application/fhir+json' }, payload: { ...basePatients[0], gender: 'female' } });
  t.equal(again.json().meta.versionId, '3');
  t.ok(again.json().meta.lastUpdated > firstStamp, 'later than the write before the restart');
  t.ok(again.json().meta.lastUpdated.startsWith('2023-11-13'), 'still on the session clock');
});

t.test('resetting the default session removes the writes made through /fhir and keeps the base', async (t) => {
  const gym = await startGym(t, { adminToken });
  await gym.json('PUT', '/fhir/Patient/p1', { ...basePatients[0], gender: 'other' });
  const created = await gym.json('POST', '/fhir/Patient', { resourceType: 'Patient' });
  t.equal((await gym.json('POST', '/gym/sessions/default/reset', undefined, operator)).status, 200);
  t.equal((await gym.json('GET', '/fhir/Patient/p1')).body.gender, 'female');
  t.equal((await gym.json('GET', `/fhir/Patient/${created.body.id}`)).status, 404);
  t.same((await gym.json('GET', '/gym/sessions/default/log', undefined, operator)).body.entries.map((e: any) => e.path), ['Patient/p1', `Patient/${created.body.id}`], 'only the reads after the reset');
  t.equal(gym.context.store.countIn('base'), basePatients.length);
});

t.test('with a task source, a task supplies now, fixture and instruction, and an unknown task is a 400', async (t) => {
  const tasks = {
    resolve(task: string, variant: string | undefined) {
      if (task !== 'hypokalemia') return undefined;
      return { now: variant === 'late' ? '2024-02-02T08:00:00Z' : '2023-11-13T10:15:00Z', fixture: fixture as any, instruction: 'Review the potassium and act.' };
    },
  };
  const gym = await startGym(t, { tasks });
  const s = await gym.createSession({ task: 'hypokalemia', variant: 'late' });
  t.equal(s.now, '2024-02-02T08:00:00.000Z');
  t.equal(s.instruction, 'Review the potassium and act.');
  t.equal((await gym.json('GET', `/fhir/_session/${s.id}/Observation/fx-obs`)).status, 200, 'the task fixture is applied');
  const overridden = await gym.createSession({ task: 'hypokalemia', now: '2025-01-01T00:00:00Z' });
  t.equal(overridden.now, '2025-01-01T00:00:00.000Z', 'an explicit now wins over the task');
  const unknown = await gym.json('POST', '/gym/sessions', { task: 'nope' }, { 'content-type': 'application/json' });
  t.equal(unknown.status, 400);
  t.same(unknown.body.issue[0].expression, ['task']);
});
