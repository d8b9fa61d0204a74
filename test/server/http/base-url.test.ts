// Absolute URLs in answers come from the configured public base URL (`--base-url`, EHR_GYM_BASE_URL) or the listening
// address, never from the Host header (issue 14: "the Host header is echoed into fhirBaseUrl and Location").
// Real sockets; every request carries a hostile Host.
import t, { type Test } from 'tap';
import http from 'node:http';
import { buildApp } from '../../../server/app.ts';
import { parseBaseUrl } from '../../../server/http/public-url.ts';

const EVIL = 'evil.example:666';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** A request to the listening server with a Host header of the attacker's choosing. */
function send(address: string, method: string, path: string, body?: unknown, contentType = 'application/fhir+json'): Promise<Answer> {
  const { port } = new URL(address);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1', port, path, method, agent: false,
      headers: { host: EVIL, 'x-forwarded-host': 'forwarded.example', ...(payload === undefined ? {} : { 'content-type': contentType, 'content-length': Buffer.byteLength(payload) }) },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Every absolute URL a session's episode sees, from session creation to search, history and a transaction. */
async function urlsSeen(t: Test, address: string, proxyPrefix = ''): Promise<{ all: string; fhirBaseUrl: string; urls: string[] }> {
  const created = await send(address, 'POST', '/gym/sessions', {}, 'application/json');
  t.equal(created.status, 201);
  const session = JSON.parse(created.text);
  // Behind a proxy that serves the server under a path (https://host/ehr/...), the proxy takes the prefix off.
  const base = new URL(session.fhirBaseUrl).pathname.slice(proxyPrefix.length);
  const patient = await send(address, 'POST', `${base}/Patient`, { resourceType: 'Patient', name: [{ family: 'Base' }] });
  t.equal(patient.status, 201);
  const search = await send(address, 'GET', `${base}/Patient?_count=1`);
  const history = await send(address, 'GET', `${base}/Patient/_history`);
  const transaction = await send(address, 'POST', base, {
    resourceType: 'Bundle', type: 'transaction',
    entry: [{ fullUrl: 'urn:uuid:0b8f3c3e-0000-4000-8000-000000000001', resource: { resourceType: 'Patient' }, request: { method: 'POST', url: 'Patient' } }],
  });
  t.equal(transaction.status, 200);
  const capability = await send(address, 'GET', `${base}/metadata`);
  const summary = await send(address, 'GET', `/gym/sessions/${session.id}`);
  const all = [created, patient, search, history, transaction, capability, summary].map((a) => `${JSON.stringify(a.headers)} ${a.text}`).join('\n');
  const urls = [created.headers.location!, patient.headers.location!, session.fhirBaseUrl, JSON.parse(summary.text).fhirBaseUrl,
    ...JSON.parse(search.text).link.map((l: { url: string }) => l.url), ...JSON.parse(search.text).entry.map((e: { fullUrl: string }) => e.fullUrl),
    ...JSON.parse(history.text).entry.map((e: { fullUrl: string }) => e.fullUrl),
    ...JSON.parse(transaction.text).entry.map((e: { response: { location: string } }) => e.response.location)];
  return { all, fhirBaseUrl: session.fhirBaseUrl, urls };
}

t.test('no base URL configured: the listening address, whatever Host says', async (t) => {
  const { app } = buildApp();
  t.teardown(() => app.close());
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const { all, fhirBaseUrl, urls } = await urlsSeen(t, address);
  t.match(fhirBaseUrl, new RegExp(`^${address}/fhir/_session/[A-Za-z0-9_-]{24}$`));
  for (const url of urls) t.ok(url.startsWith(`${address}/`), `${url} starts with the listening address`);
  t.notOk(all.includes('evil.example'), 'the Host header is never echoed');
  t.notOk(all.includes('forwarded.example'), 'nor X-Forwarded-Host');
  const plain = JSON.parse((await send(address, 'GET', '/fhir/Patient?_count=1')).text);
  t.equal(plain.link[0].url.slice(0, address.length + 5), `${address}/fhir`, 'the default base too');
});

t.test('a configured base URL: every absolute URL starts with it; the gym API, the FHIR base and tools agree', async (t) => {
  const { app } = buildApp({ baseUrl: 'https://gym.example.org/ehr/' });
  t.teardown(() => app.close());
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const { all, fhirBaseUrl, urls } = await urlsSeen(t, address, '/ehr');
  t.match(fhirBaseUrl, /^https:\/\/gym\.example\.org\/ehr\/fhir\/_session\/[A-Za-z0-9_-]{24}$/);
  for (const url of urls) t.ok(url.startsWith('https://gym.example.org/ehr/'), url);
  t.notOk(all.includes('evil.example') || all.includes('127.0.0.1'), 'neither Host nor the listening address shows');

  // A transaction entry may name the server by its public URL; the Host the client used is not the server's name.
  const s = JSON.parse((await send(address, 'POST', '/gym/sessions', {}, 'application/json')).text);
  const base = new URL(s.fhirBaseUrl).pathname.replace(/^\/ehr/, '');
  const put = (url: string) => send(address, 'POST', base, {
    resourceType: 'Bundle', type: 'transaction',
    entry: [{ resource: { resourceType: 'Patient', id: 'abs1' }, request: { method: 'PUT', url } }],
  });
  t.equal((await put(`${s.fhirBaseUrl}/Patient/abs1`)).status, 200, 'an entry URL on the public base');
  t.equal((await put(`http://${EVIL}${base}/Patient/abs1`)).status, 400, 'an entry URL on the Host sent is not this server');
});

t.test('the FHIR base may be given instead of the root; malformed base URLs stop the app from being built', async (t) => {
  t.equal(parseBaseUrl('https://gym.example.org/ehr/fhir'), 'https://gym.example.org/ehr');
  t.equal(parseBaseUrl('https://gym.example.org/ehr/fhir/'), 'https://gym.example.org/ehr');
  t.equal(parseBaseUrl('http://[::1]:8080'), 'http://[::1]:8080');
  t.equal(parseBaseUrl('HTTPS://Gym.Example.ORG:443/'), 'https://gym.example.org');
  for (const bad of ['gym.example.org', '/fhir', 'ftp://gym.example.org', 'https://user:pw@gym.example.org', 'https://gym.example.org/?x=1', 'https://gym.example.org/#f', '']) {
    t.throws(() => buildApp({ baseUrl: bad }), /base URL/, JSON.stringify(bad));
  }
});
