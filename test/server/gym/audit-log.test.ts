// The audit log: every request under a session's FHIR base (and /fhir under 'default') with time on the session
// clock, method, path, query, status, write bodies, returned resource ids and latency.
import t from 'tap';
import { basePatients, startGym } from './gym-harness.ts';
import type { FhirResponse } from '../../../server/fhir-request.ts';
import { idFromLocation, returnedResourceIds } from '../../../server/http/returned-ids.ts';

t.test('every request in a session is recorded, in order, on the session clock', async (t) => {
  const gym = await startGym(t);
  const s = await gym.createSession({ now: '2023-11-13T10:15:00Z' });
  const base = `/fhir/_session/${s.id}`;
  const body = { resourceType: 'Patient', name: [{ family: 'Logged' }] };
  const created = await gym.json('POST', `${base}/Patient`, body);
  await gym.json('GET', `${base}/Patient/p1?_pretty=true`);
  await gym.json('PUT', `${base}/Patient/p1`, { ...basePatients[0], gender: 'other' });
  await gym.json('GET', `${base}/Patient/nope`);
  await gym.json('DELETE', `${base}/Observation/o1`);
  await gym.json('GET', `${base}/Patient/p1/_history`);
  await gym.json('POST', `${base}/Patient`, body, { prefer: 'return=minimal' });
  await gym.inject({ method: 'GET', url: `${base}/Patient?gender=female&gender=male&_count=5` });

  const log = await gym.json('GET', `/gym/sessions/${s.id}/log`);
  t.equal(log.status, 200);
  const entries = log.body.entries;
  t.same(entries.map((e: any) => [e.method, e.path, e.status]), [
    ['POST', 'Patient', 201],
    ['GET', 'Patient/p1', 200],
    ['PUT', 'Patient/p1', 200],
    ['GET', 'Patient/nope', 404],
    ['DELETE', 'Observation/o1', 200],
    ['GET', 'Patient/p1/_history', 200],
    ['POST', 'Patient', 201],
    ['GET', 'Patient', 200],
  ]);
  t.same(entries[0].requestBody, body, 'write bodies are kept');
  t.notOk('requestBody' in entries[1], 'reads have none');
  t.same(entries[0].resourceIds, [`Patient/${created.body.id}`]);
  t.same(entries[1].query, [['_pretty', 'true']]);
  t.same(entries[1].resourceIds, ['Patient/p1']);
  t.same(entries[3].resourceIds, [], 'an OperationOutcome returns no resource');
  t.same(entries[5].resourceIds, ['Patient/p1', 'Patient/p1'], 'each history entry');
  t.match(entries[6].resourceIds, [/^Patient\/[A-Za-z0-9-]+$/], 'return=minimal: the id comes from Location');
  t.same(entries[7].query, [['gender', 'female'], ['gender', 'male'], ['_count', '5']], 'repeats and order kept');
  for (const e of entries) {
    t.ok(e.time.startsWith('2023-11-13T10:15:'), `time on the session clock: ${e.time}`);
    t.ok(typeof e.latencyMs === 'number' && e.latencyMs >= 0);
  }
  t.same(entries.map((e: any) => e.time), [...entries.map((e: any) => e.time)].sort(), 'times increase');
  t.ok(entries.every((e: any, i: number) => i === 0 || e.seq > entries[i - 1].seq));

  const page = await gym.json('GET', `/gym/sessions/${s.id}/log?after=${entries[5].seq}&limit=1`);
  t.same(page.body.entries.map((e: any) => e.seq), [entries[6].seq]);
  t.equal((await gym.json('GET', `/gym/sessions/${s.id}/log?after=x`)).status, 400);
});

t.test('logs are per session; /fhir logs under default; unknown sessions and the gym API are not logged', async (t) => {
  const gym = await startGym(t, { adminToken: 'operator-token' });
  const a = await gym.createSession();
  const b = await gym.createSession();
  await gym.json('GET', `/fhir/_session/${a.id}/Patient/p1`);
  await gym.json('GET', `/fhir/_session/${b.id}/Patient/p2`);
  await gym.json('GET', `/fhir/_session/${b.id}/Patient/p1`);
  await gym.json('GET', '/fhir/Patient/p2');
  await gym.json('GET', '/fhir/_session/AAAAAAAAAAAAAAAAAAAAAAAA/Patient/p2');
  await gym.json('GET', `/gym/sessions/${a.id}`);
  t.same((await gym.json('GET', `/gym/sessions/${a.id}/log`)).body.entries.map((e: any) => e.path), ['Patient/p1']);
  t.same((await gym.json('GET', `/gym/sessions/${b.id}/log`)).body.entries.map((e: any) => e.path), ['Patient/p2', 'Patient/p1']);
  t.same((await gym.json('GET', '/gym/sessions/default/log', undefined, { authorization: 'Bearer operator-token' })).body.entries.map((e: any) => e.path), ['Patient/p2']);
});

t.test('malformed requests in a session are logged with their error status', async (t) => {
  const gym = await startGym(t);
  const s = await gym.createSession();
  await gym.inject({ method: 'POST', url: `/fhir/_session/${s.id}/Patient`, headers: { 'content-type': 'application/fhir+json' }, payload: '{not json' });
  await gym.inject({ method: 'GET', url: `/fhir/_session/${s.id}/Patient/p1`, headers: { accept: 'application/fhir+xml' } });
  const entries = (await gym.json('GET', `/gym/sessions/${s.id}/log`)).body.entries;
  t.same(entries.map((e: any) => e.status), [400, 406]);
});

t.test('returnedResourceIds reads resources, Bundle entries and Location headers from the answer', async (t) => {
  const cases: [unknown, string[]][] = [
    [{ status: 200, body: { resourceType: 'Patient', id: 'a' } }, ['Patient/a']],
    [{ status: 200, body: '{"resourceType":"Patient","id":"a"}', resourceIds: ['Patient/a'] }, ['Patient/a']],
    [{ status: 200, body: 'id,code\n1,x', headers: { 'content-type': 'text/csv' } }, []],
    [{ status: 400, body: { resourceType: 'OperationOutcome', id: 'x', issue: [] } }, []],
    [{ status: 200, body: { resourceType: 'Bundle', type: 'searchset', entry: [{ resource: { resourceType: 'Patient', id: 'a' } }, { resource: { resourceType: 'Observation', id: 'b' } }] } }, ['Patient/a', 'Observation/b']],
    [{ status: 200, body: { resourceType: 'Bundle', type: 'transaction-response', entry: [{ response: { status: '201', location: 'Patient/n/_history/1' } }] } }, ['Patient/n']],
    [{ status: 200, body: { resourceType: 'Bundle', type: 'searchset', total: 0 } }, []],
    [{ status: 201, headers: { location: 'http://h/fhir/_session/x/Patient/z/_history/3' } }, ['Patient/z']],
    [{ status: 204 }, []],
  ];
  for (const [response, expected] of cases) t.same(returnedResourceIds(response as FhirResponse), expected, JSON.stringify(response).slice(0, 80));
  t.equal(idFromLocation('Patient/1'), 'Patient/1');
  t.equal(idFromLocation('http://h/fhir/Observation/o-1.2/_history/7'), 'Observation/o-1.2');
  t.equal(idFromLocation('http://h/gym/sessions'), undefined);
});

t.test('the log records what each answer returned, whatever its key order or size', async (t) => {
  const gym = await startGym(t);
  const s = (await gym.json('POST', '/gym/sessions', {}, { 'content-type': 'application/json' })).body;
  const base = `/fhir/_session/${s.id}`;
  const expected: string[][] = [];
  for (const url of ['/Patient', '/Observation?_include=Observation:subject&_id=o1', '/Patient/p1', '/Patient/p1/_history/1', '/Patient?_count=1']) {
    const res = await gym.inject({ method: 'GET', url: base + url });
    t.equal(res.statusCode, 200, url);
    const body = JSON.parse(res.body) as { resourceType: string; id?: string; entry?: { resource?: { resourceType: string; id: string } }[] };
    expected.push(body.resourceType === 'Bundle' ? (body.entry ?? []).map((e) => `${e.resource!.resourceType}/${e.resource!.id}`) : [`${body.resourceType}/${body.id}`]);
  }
  const entries = (await gym.json('GET', `/gym/sessions/${s.id}/log`)).body.entries as { resourceIds: string[] }[];
  t.same(entries.map((e) => e.resourceIds), expected);
  t.ok(expected[0].length >= 2, 'the search returned patients');
});
