// Fair use of the shared server (issue 14, "Abuse of shared state"), over real sockets: one client cannot fill the
// session table or churn sessions (per-client quota and creation rate, 429 with Retry-After and an
// OperationOutcome); the shared default session's log, changes, reset and submit answer only to the operator.
// Clients are told apart by source address: the whole of 127.0.0.0/8 is loopback, so 127.0.0.2 is a second client.
import t, { type Test } from 'tap';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGym, type Gym } from './gym-harness.ts';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: any;
}

/** One request over a fresh socket from `from` (a loopback source address). */
function send(address: string, method: string, path: string, options: { from?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const { port } = new URL(address);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1', port, path, method, localAddress: options.from ?? '127.0.0.1', agent: false,
      headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }), ...options.headers },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text, json: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

async function listening(t: Test, options: Parameters<typeof startGym>[1]): Promise<{ gym: Gym; address: string }> {
  const gym = await startGym(t, options);
  const address = await gym.app.listen({ port: 0, host: '127.0.0.1' });
  return { gym, address };
}

function assertThrottled(t: Test, answer: Answer, label: string): number {
  t.equal(answer.status, 429, `${label}: 429`);
  t.match(answer.headers['content-type'], /^application\/fhir\+json/, `${label}: FHIR JSON`);
  t.equal(answer.json?.resourceType, 'OperationOutcome', `${label}: an OperationOutcome`);
  t.equal(answer.json?.issue?.[0]?.code, 'throttled', `${label}: issue code throttled`);
  const retryAfter = Number(answer.headers['retry-after']);
  t.ok(Number.isInteger(retryAfter) && retryAfter >= 1, `${label}: Retry-After in whole seconds (${answer.headers['retry-after']})`);
  return retryAfter;
}

t.test('per-client quota: a client holding its quota gets 429 + Retry-After; other clients still create; deleting frees a slot', async (t) => {
  const { gym, address } = await listening(t, { gym: { maxSessionsPerClient: 3, sessionCreateBurst: Infinity } });
  const mine: string[] = [];
  for (let i = 0; i < 3; i++) {
    const created = await send(address, 'POST', '/gym/sessions', { body: {} });
    t.equal(created.status, 201, `session ${i + 1} of 3`);
    mine.push(created.json.id);
  }
  assertThrottled(t, await send(address, 'POST', '/gym/sessions', { body: {} }), 'the fourth');
  t.equal(gym.sessions.list().length, 3, 'the refused create left nothing behind');

  const other = await send(address, 'POST', '/gym/sessions', { body: {}, from: '127.0.0.2' });
  t.equal(other.status, 201, 'another client is not locked out');

  t.equal((await send(address, 'DELETE', `/gym/sessions/${mine[0]}`)).status, 204);
  t.equal((await send(address, 'POST', '/gym/sessions', { body: {} })).status, 201, 'a deleted session frees its slot');
  assertThrottled(t, await send(address, 'POST', '/gym/sessions', { body: {} }), 'and the quota holds again');
});

t.test('the quota counts a client\'s sessions across a restart (each is stored with its creator, never shown)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ehr-gym-fair-use-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const options = { dbPath: join(dir, 'gym.sqlite'), gym: { maxSessionsPerClient: 2, sessionCreateBurst: Infinity } };
  const first = await listening(t, options);
  const ids: string[] = [];
  for (let i = 0; i < 2; i++) ids.push((await send(first.address, 'POST', '/gym/sessions', { body: {} })).json.id);
  const summary = await send(first.address, 'GET', `/gym/sessions/${ids[0]}`);
  const { fhirBaseUrl, ...rest } = summary.json;
  t.match(fhirBaseUrl, /^http:\/\/127\.0\.0\.1:/);
  t.notOk(JSON.stringify(rest).includes('127.0.0.1'), 'the creator\'s address is not in the summary');
  await first.gym.app.close();
  const second = await listening(t, options);
  t.equal(second.gym.sessions.list().length, 2, 'both sessions came back');
  assertThrottled(t, await send(second.address, 'POST', '/gym/sessions', { body: {} }), 'a third after the restart');
});

t.test('creation rate: a burst, then sessionCreatesPerMinute; Retry-After says when the next one is allowed', async (t) => {
  let wall = Date.parse('2030-01-01T00:00:00Z');
  const { address } = await listening(t, { gym: { sessionCreateBurst: 3, sessionCreatesPerMinute: 2, maxSessionsPerClient: 100, wallTime: () => wall } });
  const create = async (from?: string) => send(address, 'POST', '/gym/sessions', { body: {}, ...(from ? { from } : {}) });
  for (let i = 0; i < 3; i++) t.equal((await create()).status, 201, `burst ${i + 1} of 3`);
  const refused = await create();
  t.equal(assertThrottled(t, refused, 'past the burst'), 30, 'two a minute: the next token in 30 s');
  t.equal((await create('127.0.0.2')).status, 201, 'another client has its own budget');
  wall += 29_000;
  assertThrottled(t, await create(), 'one second early');
  wall += 1_000;
  t.equal((await create()).status, 201, 'allowed once the token is back');
  assertThrottled(t, await create(), 'and spent again');
});

t.test('X-Forwarded-For is believed only from a trusted proxy', async (t) => {
  for (const trustProxy of [undefined, '127.0.0.1']) {
    const { address } = await listening(t, { gym: { maxSessionsPerClient: 1, sessionCreateBurst: Infinity }, ...(trustProxy ? { trustProxy } : {}) });
    const as = (client: string) => send(address, 'POST', '/gym/sessions', { body: {}, headers: { 'x-forwarded-for': client } });
    t.equal((await as('203.0.113.1')).status, 201);
    const second = await as('203.0.113.2');
    if (trustProxy) t.equal(second.status, 201, 'behind a trusted proxy, the forwarded address is the client');
    else assertThrottled(t, second, 'without trustProxy a made-up X-Forwarded-For does not make a new client');
  }
});

t.test('the default session\'s log, changes, reset and submit need the operator token; its FHIR base stays open', async (t) => {
  const token = 'fair-use-operator-token';
  for (const adminToken of [undefined, token]) {
    const { gym, address } = await listening(t, adminToken ? { adminToken } : {});
    const label = adminToken ? 'token configured' : 'no token configured';
    const written = await send(address, 'POST', '/fhir/Patient', {
      body: { resourceType: 'Patient', name: [{ family: 'SharedSecret' }] }, headers: { 'content-type': 'application/fhir+json' },
    });
    t.equal(written.status, 201, `${label}: /fhir is open to anyone`);
    const guarded: [string, string, unknown?][] = [
      ['GET', '/gym/sessions/default/log'], ['GET', '/gym/sessions/default/changes'],
      ['POST', '/gym/sessions/default/reset'], ['POST', '/gym/sessions/default/submit', { answer: 'x' }],
    ];
    for (const [method, path, body] of guarded) {
      for (const authorization of [undefined, 'Bearer wrong-token']) {
        const answer = await send(address, method, path, { ...(body ? { body } : {}), ...(authorization ? { headers: { authorization } } : {}) });
        const what = `${label}: ${method} ${path} with ${authorization ?? 'no credentials'}`;
        t.equal(answer.status, adminToken ? 401 : 403, what);
        t.equal(answer.json.resourceType, 'OperationOutcome', what);
        t.notOk(answer.text.includes('SharedSecret'), `${what}: nothing of the default session shown`);
      }
    }
    t.equal(gym.context.store.countIn('default'), 1, `${label}: the refused reset wiped nothing`);
    t.equal((await send(address, 'GET', '/gym/sessions/default')).status, 200, `${label}: the summary stays public`);
    if (adminToken) {
      const operator = { authorization: `Bearer ${token}` };
      const log = await send(address, 'GET', '/gym/sessions/default/log', { headers: operator });
      t.equal(log.status, 200, 'the operator reads the log');
      t.ok(log.text.includes('SharedSecret'), 'with the bodies sent to /fhir');
      t.equal((await send(address, 'GET', '/gym/sessions/default/changes', { headers: operator })).json.changes.length, 1);
      t.equal((await send(address, 'POST', '/gym/sessions/default/reset', { headers: operator })).status, 200, 'the operator resets');
      t.equal(gym.context.store.countIn('default'), 0, 'and the reset happened');
    }
  }
});

t.test('a session\'s own gym routes still need only its id', async (t) => {
  const { address } = await listening(t, { adminToken: 'some-operator-token' });
  const s = (await send(address, 'POST', '/gym/sessions', { body: {} })).json;
  for (const [method, path, body] of [['GET', `/gym/sessions/${s.id}/log`], ['GET', `/gym/sessions/${s.id}/changes`],
    ['POST', `/gym/sessions/${s.id}/submit`, { answer: 1 }], ['POST', `/gym/sessions/${s.id}/reset`]] as [string, string, unknown?][]) {
    t.equal((await send(address, method, path, body ? { body } : {})).status, 200, `${method} ${path}`);
  }
});
