// The audit log: every request under a session's FHIR base (and /fhir under 'default') with time on the session
// clock, method, path, query, status, write bodies, returned resource ids and latency.
import t from 'tap';
import { basePatients, startGym } from './gym-harness.ts';
import { idFromLocation, returnedResourceIds } from '../../../server/gym/audit-log.ts';

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

t.test('returnedResourceIds reads resources, Bundle entries and Location headers', async (t) => {
  const cases: [string | undefined, string | undefined, string[]][] = [
    [JSON.stringify({ resourceType: 'Patient', id: 'a' }), undefined, ['Patient/a']],
    [JSON.stringify({ resourceType: 'OperationOutcome', id: 'x', issue: [] }), undefined, []],
    [JSON.stringify({ resourceType: 'Bundle', type: 'searchset', entry: [{ resource: { resourceType: 'Patient', id: 'a' } }, { resource: { resourceType: 'Observation', id: 'b' } }] }), undefined, ['Patient/a', 'Observation/b']],
    [JSON.stringify({ resourceType: 'Bundle', type: 'transaction-response', entry: [{ response: { status: '201', location: 'Patient/n/_history/1' } }] }), undefined, ['Patient/n']],
    [JSON.stringify({ resourceType: 'Bundle', type: 'searchset', total: 0 }), undefined, []],
    ['', 'http://h/fhir/_session/x/Patient/z/_history/3', ['Patient/z']],
    [undefined, undefined, []],
    ['not json', undefined, []],
  ];
  for (const [payload, location, expected] of cases) t.same(returnedResourceIds(payload, location), expected, String(payload).slice(0, 60));
  t.equal(idFromLocation('Patient/1'), 'Patient/1');
  t.equal(idFromLocation('http://h/fhir/Observation/o-1.2/_history/7'), 'Observation/o-1.2');
  t.equal(idFromLocation('http://h/gym/sessions'), undefined);
});

t.test('the unparsed fast path for searchset and history Bundles finds the same ids as parsing them', async (t) => {
  const gym = await startGym(t);
  await gym.json('PUT', '/fhir/Observation/o1', { ...basePatients[2], status: 'amended' });
  await gym.json('DELETE', '/fhir/Observation/o1');
  for (const url of ['/fhir/Patient', '/fhir/Observation?_include=Observation:subject&_id=o1', '/fhir/Observation/o1/_history', '/fhir/_history', '/fhir/Patient?_count=1']) {
    const res = await gym.inject({ method: 'GET', url });
    t.equal(res.statusCode, 200, url);
    const pretty = JSON.stringify(JSON.parse(res.body), null, 1);
    const parsed = returnedResourceIds(pretty, undefined);
    t.same(returnedResourceIds(res.body, undefined), parsed, url);
    if (url === '/fhir/Observation/o1/_history') t.same(parsed, ['Observation/o1', 'Observation/o1', 'Observation/o1'], 'the deletion entry counts too');
    if (url === '/fhir/Patient') t.same(parsed.sort(), ['Patient/p1', 'Patient/p2']);
  }
});
