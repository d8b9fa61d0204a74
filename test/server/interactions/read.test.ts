// read: GET [base]/[type]/[id] (FHIR R4 3.1.0.2): 200 with ETag and Last-Modified, 404 unknown, 410 deleted,
// conditional read with If-None-Match / If-Modified-Since (304), base URLs with trailing and doubled slashes.
import t from 'tap';
import type { Patient } from '@medplum/fhirtypes';
import {
  assertClientOutcome, assertOutcome, clientFailure, bodyOf, FHIR_JSON_UTF8, injectApp, JSON_HEADERS, patientBody, responseOf, startServer, weakETag,
} from '../test-server.ts';

t.test('inject: read returns the current version with its ETag and Last-Modified', async (t) => {
  const { app } = injectApp(t);
  await app.inject({ method: 'PUT', url: '/fhir/Patient/p1', headers: JSON_HEADERS, payload: patientBody({ id: 'p1' }) });
  await app.inject({ method: 'PUT', url: '/fhir/Patient/p1', headers: JSON_HEADERS, payload: patientBody({ id: 'p1', active: true }) });
  const res = await app.inject({ url: '/fhir/Patient/p1' });
  t.equal(res.statusCode, 200);
  t.equal(res.headers['content-type'], FHIR_JSON_UTF8);
  const patient = bodyOf<Patient>(res);
  t.equal(patient.id, 'p1');
  t.equal(patient.active, true, 'the latest version, not the first');
  t.equal(patient.meta?.versionId, '2');
  t.equal(res.headers.etag, weakETag(2));
  t.equal(Date.parse(String(res.headers['last-modified'])), Math.floor(Date.parse(patient.meta!.lastUpdated!) / 1000) * 1000);
  t.same(Object.keys(patient).slice(0, 3), ['resourceType', 'id', 'meta'], 'resourceType, id, meta serialized first');
});

t.test('inject: 404 for an unknown type or id, 410 after delete', async (t) => {
  const { app } = injectApp(t);
  assertOutcome(t, await app.inject({ url: '/fhir/Patient/nobody' }), 404, 'not-found');
  assertOutcome(t, await app.inject({ url: '/fhir/Patientt/p1' }), 404, 'not-found');
  assertOutcome(t, await app.inject({ url: '/fhir/patient/p1' }), 404, 'not-found');
  await app.inject({ method: 'PUT', url: '/fhir/Patient/p1', headers: JSON_HEADERS, payload: patientBody({ id: 'p1' }) });
  await app.inject({ method: 'DELETE', url: '/fhir/Patient/p1' });
  assertOutcome(t, await app.inject({ url: '/fhir/Patient/p1' }), 410, 'deleted');
});

t.test('inject: conditional read - If-None-Match and If-Modified-Since give 304 (RFC 7232)', async (t) => {
  const { app } = injectApp(t);
  await app.inject({ method: 'PUT', url: '/fhir/Patient/p1', headers: JSON_HEADERS, payload: patientBody({ id: 'p1' }) });
  await app.inject({ method: 'PUT', url: '/fhir/Patient/p1', headers: JSON_HEADERS, payload: patientBody({ id: 'p1', active: true }) });
  const read = (headers: Record<string, string>) => app.inject({ url: '/fhir/Patient/p1', headers });

  const current = await read({ 'if-none-match': 'W/"2"' });
  t.equal(current.statusCode, 304, 'current ETag: not modified');
  t.equal(current.body, '', '304 has no body');
  t.equal(current.headers.etag, weakETag(2), '304 still carries the ETag');
  t.equal((await read({ 'if-none-match': '"2"' })).statusCode, 304, 'a strong-looking tag of the same version matches');
  t.equal((await read({ 'if-none-match': 'W/"1", W/"2"' })).statusCode, 304, 'a list with the current version');
  t.equal((await read({ 'if-none-match': '*' })).statusCode, 304, '* matches any current version');
  const stale = await read({ 'if-none-match': 'W/"1"' });
  t.equal(stale.statusCode, 200, 'a stale ETag gets the resource');
  t.equal(bodyOf<Patient>(stale).meta?.versionId, '2');

  const lastModified = String(stale.headers['last-modified']);
  t.equal((await read({ 'if-modified-since': lastModified })).statusCode, 304, 'not modified since its own Last-Modified');
  t.equal((await read({ 'if-modified-since': new Date(Date.parse(lastModified) + 60_000).toUTCString() })).statusCode, 304);
  t.equal((await read({ 'if-modified-since': new Date(Date.parse(lastModified) - 1000).toUTCString() })).statusCode, 200, 'modified after the date');
  t.equal((await read({ 'if-modified-since': 'not a date' })).statusCode, 200, 'an unparseable date is ignored');
  // If-None-Match takes precedence over If-Modified-Since (RFC 7232 3.3).
  t.equal((await read({ 'if-none-match': 'W/"1"', 'if-modified-since': lastModified })).statusCode, 200);
});

t.test('inject: base URL with a trailing slash and with duplicate slashes', async (t) => {
  const { app } = injectApp(t);
  await app.inject({ method: 'PUT', url: '/fhir/Patient/p1', headers: JSON_HEADERS, payload: patientBody({ id: 'p1' }) });
  for (const url of ['/fhir/Patient/p1/', '/fhir//Patient/p1', '//fhir/Patient//p1', '/fhir///Patient/p1//']) {
    const res = await app.inject({ url });
    t.equal(res.statusCode, 200, url);
    t.equal(bodyOf<Patient>(res).id, 'p1', url);
  }
  const created = await app.inject({ method: 'POST', url: '/fhir//Patient', headers: JSON_HEADERS, payload: patientBody() });
  t.equal(created.statusCode, 201);
  t.match(String(created.headers.location), /^http:\/\/localhost:80\/fhir\/Patient\/[^/]+\/_history\/1$/, 'Location is normalized');
});

t.test('inject: HEAD gives the headers of a read', async (t) => {
  const { app } = injectApp(t);
  await app.inject({ method: 'PUT', url: '/fhir/Patient/p1', headers: JSON_HEADERS, payload: patientBody({ id: 'p1' }) });
  const res = await app.inject({ method: 'HEAD', url: '/fhir/Patient/p1' });
  t.equal(res.statusCode, 200);
  t.equal(res.headers.etag, weakETag(1));
  t.equal(res.body, '');
});

t.test('inject: _pretty and _format', async (t) => {
  const { app } = injectApp(t);
  await app.inject({ method: 'PUT', url: '/fhir/Patient/p1', headers: JSON_HEADERS, payload: patientBody({ id: 'p1' }) });
  const plain = await app.inject({ url: '/fhir/Patient/p1' });
  t.notMatch(plain.body, /\n/, 'compact by default');
  const pretty = await app.inject({ url: '/fhir/Patient/p1?_pretty=true' });
  t.match(pretty.body, /\n {2}"resourceType": "Patient"/, '_pretty=true indents');
  t.same(JSON.parse(pretty.body), JSON.parse(plain.body));
  const json = await app.inject({ url: '/fhir/Patient/p1?_format=json' });
  t.equal(json.headers['content-type'], FHIR_JSON_UTF8, '_format=json still answers application/fhir+json');
  t.equal(json.statusCode, 200);
  assertOutcome(t, await app.inject({ url: '/fhir/Patient/p1?_format=xml' }), 406);
});

t.test('fhir-kit-client: read, 304, 404, 410', async (t) => {
  const { client, slashClient, baseUrl } = await startServer(t);
  const created = (await client.create({ resourceType: 'Patient', body: patientBody() as never })) as Patient;
  const read = (await client.read({ resourceType: 'Patient', id: created.id! })) as Patient;
  t.same(read, created);
  t.equal(responseOf(read).headers.get('etag'), weakETag(1));
  t.equal(responseOf(read).headers.get('content-type'), FHIR_JSON_UTF8);
  t.same(await slashClient.read({ resourceType: 'Patient', id: created.id! }), created, 'trailing-slash base');

  // fhir-kit-client treats any non-2xx as a failure, 304 included.
  const notModified = await clientFailure(t, client.read({ resourceType: 'Patient', id: created.id!, options: { headers: { 'if-none-match': 'W/"1"' } } }));
  t.equal(notModified.status, 304);

  await assertClientOutcome(t, client.read({ resourceType: 'Patient', id: 'nobody' }), 404, 'not-found');
  await client.delete({ resourceType: 'Patient', id: created.id! });
  await assertClientOutcome(t, client.read({ resourceType: 'Patient', id: created.id! }), 410, 'deleted');

  // Doubled slashes straight from a harness that concatenates `base/` + `/path`.
  const doubled = await fetch(`${baseUrl}//Patient//${created.id}/_history/1?_format=json`);
  t.equal(doubled.status, 200);
  t.equal(doubled.headers.get('content-type'), FHIR_JSON_UTF8);
});
