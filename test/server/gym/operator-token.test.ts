// GET /gym/sessions names every session, and a session id is the capability to use that session: the list answers
// only to the operator's bearer token, and not at all when the server has none. Real socket, real fetch.
import t from 'tap';
import { buildApp } from '../../../server/app.ts';
import { startGym } from './gym-harness.ts';

const TOKEN = 'op3rator-Token_for.tests~1';

/** A GET of the list over the socket: status, headers and body text. */
async function list(address: string, authorization?: string, method = 'GET') {
  const response = await fetch(`${address}/gym/sessions`, { method, headers: authorization === undefined ? {} : { authorization } });
  return { status: response.status, challenge: response.headers.get('www-authenticate'), text: await response.text() };
}

t.test('without an operator token the list is disabled: 403 for every caller, no id shown', async (t) => {
  for (const adminToken of [undefined, '']) {
    const gym = await startGym(t, adminToken === undefined ? {} : { adminToken });
    const address = await gym.app.listen({ port: 0, host: '127.0.0.1' });
    const a = await gym.createSession();
    const b = await gym.createSession();
    for (const authorization of [undefined, 'Bearer ', `Bearer ${TOKEN}`, `Bearer ${a.id}`]) {
      const res = await list(address, authorization);
      const label = `token ${JSON.stringify(adminToken)}, Authorization ${JSON.stringify(authorization)}`;
      t.equal(res.status, 403, label);
      const body = JSON.parse(res.text);
      t.equal(body.resourceType, 'OperationOutcome', label);
      t.equal(body.issue[0].code, 'forbidden', label);
      t.match(body.issue[0].diagnostics, /EHR_GYM_ADMIN_TOKEN/, 'it says how to enable it');
      for (const id of [a.id, b.id]) t.notOk(res.text.includes(id), `${label}: no session id`);
    }
    t.equal((await list(address, undefined, 'HEAD')).status, 403, 'HEAD too');
  }
});

t.test('with an operator token: missing or wrong credentials are a 401 with a Bearer challenge; the right token lists', async (t) => {
  const gym = await startGym(t, { adminToken: TOKEN });
  const address = await gym.app.listen({ port: 0, host: '127.0.0.1' });
  const a = await gym.createSession();
  const b = await gym.createSession();

  const refused: [string | undefined, string][] = [
    [undefined, 'no Authorization header'],
    ['Bearer', 'the scheme alone'],
    [TOKEN, 'the token without a scheme'],
    [`Basic ${Buffer.from(`operator:${TOKEN}`).toString('base64')}`, 'another scheme'],
    ['Bearer wrong', 'a wrong token'],
    [`Bearer ${TOKEN}x`, 'the token and more'],
    [`Bearer ${TOKEN.slice(0, -1)}`, 'the token less its last character'],
    [`Bearer ${TOKEN.toUpperCase()}`, 'the token in another case (tokens are case-sensitive)'],
    [`Bearer ${TOKEN} ${TOKEN}`, 'the token twice'],
    [`Bearer ${a.id}`, 'a session id'],
    [`Bearer ${'x'.repeat(8000)}`, 'a very long token'],
    ['Bearer \u00e9t\u00e9', 'bytes outside ASCII'],
  ];
  for (const [authorization, label] of refused) {
    const res = await list(address, authorization);
    t.equal(res.status, 401, label);
    const body = JSON.parse(res.text);
    t.equal(body.resourceType, 'OperationOutcome', label);
    t.equal(body.issue[0].code, 'login', label);
    t.match(res.challenge, /^Bearer realm="ehr-gym"/, `${label}: a Bearer challenge`);
    for (const id of [a.id, b.id]) t.notOk(res.text.includes(id), `${label}: no session id`);
  }
  t.equal((await list(address, 'Bearer wrong')).challenge, 'Bearer realm="ehr-gym", error="invalid_token"', 'a wrong token is invalid_token (RFC 6750 3.1)');
  t.equal((await list(address)).challenge, 'Bearer realm="ehr-gym"', 'no credentials: no error code (RFC 6750 3)');

  for (const authorization of [`Bearer ${TOKEN}`, `bearer ${TOKEN}`]) {
    const res = await list(address, authorization);
    t.equal(res.status, 200, `${authorization.split(' ')[0]} (the scheme is case-insensitive)`);
    t.same(JSON.parse(res.text).sessions.map((s: { id: string }) => s.id).sort(), [a.id, b.id].sort());
  }
});

t.test('the per-session routes need only the id, with or without an operator token configured', async (t) => {
  for (const options of [{}, { adminToken: TOKEN }]) {
    const gym = await startGym(t, options);
    const address = await gym.app.listen({ port: 0, host: '127.0.0.1' });
    const s = await gym.createSession();
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${address}${path}`, {
        method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      });
      return { status: response.status, body: response.status === 204 ? undefined : await response.json() };
    };
    const label = options.adminToken ? 'with a token configured' : 'without one';
    t.equal((await call('GET', `/fhir/_session/${s.id}/Patient/p1`)).status, 200, `${label}: FHIR base`);
    t.equal((await call('POST', `/gym/sessions/${s.id}/tools/fhir_read`, { resourceType: 'Patient', id: 'p1' })).body.isError, false, `${label}: tools`);
    t.equal((await call('GET', `/gym/sessions/${s.id}/log`)).body.entries.length, 2, `${label}: log`);
    t.same((await call('GET', `/gym/sessions/${s.id}/changes`)).body.changes, [], `${label}: changes`);
    t.equal((await call('POST', `/gym/sessions/${s.id}/submit`, { answer: 42 })).status, 200, `${label}: submit`);
    t.equal((await call('GET', `/gym/sessions/${s.id}`)).body.submission.answer, 42, `${label}: summary`);
    t.equal((await call('POST', `/gym/sessions/${s.id}/reset`)).body.state, 'active', `${label}: reset`);
    t.equal((await call('DELETE', `/gym/sessions/${s.id}`)).status, 204, `${label}: delete`);
  }
});

t.test('a token an Authorization header cannot carry is refused when the server starts', async (t) => {
  for (const adminToken of ['two words', 'line\nbreak', 'semi;colon']) {
    const { app } = buildApp({ adminToken });
    t.teardown(() => app.close());
    await t.rejects(async () => { await app.ready(); }, /EHR_GYM_ADMIN_TOKEN/, JSON.stringify(adminToken));
  }
});
