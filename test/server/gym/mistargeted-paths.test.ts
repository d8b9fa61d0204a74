// Requests aimed at a session base that miss it (issue 14, "Smaller defects": `/fhir/./_session/ID`, `%252F`, `;`) are
// refused with an OperationOutcome and never recorded in the default session's log, which the operator reads and
// which used to be world-readable: no session id, no body. Paths are written to a raw socket exactly as listed
// (fetch and inject would resolve the dot segments first).
import t from 'tap';
import net from 'node:net';
import { startGym } from './gym-harness.ts';
import { mentionsSessionBase } from '../../../server/gym/session-paths.ts';

interface RawAnswer {
  status: number;
  headers: string;
  body: string;
}

/** One HTTP/1.1 request written byte for byte; the answer parsed just enough to check it. */
function raw(port: number, method: string, path: string, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, ...rest] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body: rest.join('\r\n\r\n') });
    });
    const content = body === undefined ? '' : `Content-Type: application/fhir+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
    socket.write(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${content}Connection: close\r\n\r\n${body ?? ''}`);
  });
}

t.test('mistargeted session paths: 4xx OperationOutcome, nothing stored, nothing in the default log', async (t) => {
  const token = 'mistargeted-operator-token';
  const gym = await startGym(t, { adminToken: token });
  const address = await gym.app.listen({ port: 0, host: '127.0.0.1' });
  const port = Number(new URL(address).port);
  const s = await gym.createSession();
  const marker = 'MistargetedBodyMarker';
  const body = JSON.stringify({ resourceType: 'Patient', name: [{ family: marker }] });
  const paths = [
    `/fhir/./_session/${s.id}/Patient`, `/fhir/../fhir/_session/${s.id}/Patient`, `/fhir/_session%252F${s.id}/Patient`,
    `/fhir/_session%25252F${s.id}/Patient`, `/fhir;_session/${s.id}/Patient`, `/fhir/;_session/${s.id}/Patient`,
    `/fhir/Patient;_session/${s.id}`, `/fhir/_session%2F${s.id}/Patient`, `/fhir/_SESSION/${s.id}/Patient`,
    `/fhir/%255Fsession/${s.id}/Patient`, `/fhir/.%2F_session/${s.id}/Patient`, `/fhir//./_session/${s.id}`,
    `/fhir/./_session/${s.id}/Patient/%E0%A4%A`,
  ];
  for (const path of paths) {
    for (const [method, payload] of [['GET', undefined], ['POST', body], ['PUT', body]] as const) {
      const answer = await raw(port, method, path, payload);
      const label = `${method} ${path}`;
      t.ok(answer.status === 400 || answer.status === 404, `${label}: 400 or 404 (${answer.status})`);
      t.match(answer.headers, /content-type: application\/fhir\+json/i, `${label}: FHIR JSON`);
      t.equal(JSON.parse(answer.body).resourceType, 'OperationOutcome', `${label}: an OperationOutcome`);
    }
  }
  t.equal(gym.context.store.countIn('default'), 0, 'nothing was written to the default session');
  t.equal(gym.context.store.countIn(s.id), 0, 'nor to the session');
  const log = await (await fetch(`${address}/gym/sessions/default/log`, { headers: { authorization: `Bearer ${token}` } })).text();
  t.notOk(log.includes(s.id), 'the default log never names the session');
  t.notOk(log.includes(marker), 'nor holds the bodies sent to it');
  t.same(JSON.parse(log).entries, [], 'none of them is a request of the default session');

  // The default base itself is still logged as before.
  await raw(port, 'GET', '/fhir/Patient/p1');
  const after = (await (await fetch(`${address}/gym/sessions/default/log`, { headers: { authorization: `Bearer ${token}` } })).json()).entries;
  t.same(after.map((e: { path: string }) => e.path), ['Patient/p1']);
});

t.test('which paths name a session base', async (t) => {
  for (const path of ['/fhir/./_session/x', '/fhir/_session%252Fx', '/fhir/_session%25252F', '/fhir/%255F%2573ession/x', '/fhir/_SeSsIoN',
    '/fhir/%E0%A4%A/_session', '/fhir/%5Fsession%E0']) {
    t.ok(mentionsSessionBase(path), path);
  }
  for (const path of ['/fhir/Patient/p1', '/fhir/Patient?name=_session', '/fhir/Observation/_history', '/fhir/%E0%A4%A', '/fhir/session']) {
    t.notOk(mentionsSessionBase(path), path);
  }
});
