// delete: DELETE [base]/[type]/[id] (FHIR R4 3.1.0.7): then read is 410 and old versions stay readable; deleting
// again succeeds; If-Match applies; conditional delete DELETE [type]?criteria.
import t from 'tap';
import type { OperationOutcome, Patient } from '@medplum/fhirtypes';
import {
  assertClientOutcome, assertOutcome, bodyOf, FHIR_JSON_UTF8, injectApp, JSON_HEADERS, patientBody, startServer, weakETag,
} from '../test-server.ts';

t.test('inject: delete, then read is 410 Gone and vread of old versions still works', async (t) => {
  const { app } = injectApp(t);
  await app.inject({ method: 'PUT', url: '/fhir/Patient/p1', headers: JSON_HEADERS, payload: patientBody({ id: 'p1' }) });
  const del = await app.inject({ method: 'DELETE', url: '/fhir/Patient/p1' });
  t.equal(del.statusCode, 200);
  t.equal(del.headers['content-type'], FHIR_JSON_UTF8);
  t.equal(bodyOf<OperationOutcome>(del).resourceType, 'OperationOutcome');
  t.equal(del.headers.etag, weakETag(2), 'the deletion is version 2');
  assertOutcome(t, await app.inject({ url: '/fhir/Patient/p1' }), 410, 'deleted');
  const v1 = await app.inject({ url: '/fhir/Patient/p1/_history/1' });
  t.equal(v1.statusCode, 200);
  t.equal(bodyOf<Patient>(v1).id, 'p1');

  const again = await app.inject({ method: 'DELETE', url: '/fhir/Patient/p1' });
  t.equal(again.statusCode, 200, 'deleting a deleted resource succeeds (idempotent)');
  const history = (await app.inject({ url: '/fhir/Patient/p1/_history' })).json();
  t.equal(history.total, 2, 'the second delete wrote no new version');

  assertOutcome(t, await app.inject({ method: 'DELETE', url: '/fhir/Patient/never' }), 404);
  assertOutcome(t, await app.inject({ method: 'DELETE', url: '/fhir/Nope/p1' }), 404);
});

t.test('inject: delete honours If-Match', async (t) => {
  const { app } = injectApp(t);
  await app.inject({ method: 'PUT', url: '/fhir/Patient/p1', headers: JSON_HEADERS, payload: patientBody({ id: 'p1' }) });
  await app.inject({ method: 'PUT', url: '/fhir/Patient/p1', headers: JSON_HEADERS, payload: patientBody({ id: 'p1' }) });
  assertOutcome(t, await app.inject({ method: 'DELETE', url: '/fhir/Patient/p1', headers: { 'if-match': 'W/"1"' } }), 412);
  t.equal((await app.inject({ url: '/fhir/Patient/p1' })).statusCode, 200, 'a stale If-Match deleted nothing');
  t.equal((await app.inject({ method: 'DELETE', url: '/fhir/Patient/p1', headers: { 'if-match': 'W/"2"' } })).statusCode, 200);
  t.equal((await app.inject({ url: '/fhir/Patient/p1' })).statusCode, 410);
});

t.test('inject: 405 for methods a path does not support', async (t) => {
  const { app } = injectApp(t);
  // RFC 7231 6.5.5: a 405 carries an Allow header naming what the path supports.
  const metadata = await app.inject({ method: 'DELETE', url: '/fhir/metadata' });
  assertOutcome(t, metadata, 405, 'not-supported');
  t.equal(metadata.headers.allow, 'GET, HEAD');
  const history = await app.inject({ method: 'DELETE', url: '/fhir/_history' });
  assertOutcome(t, history, 405);
  t.equal(history.headers.allow, 'GET, HEAD');
  assertOutcome(t, await app.inject({ method: 'DELETE', url: '/fhir/Patient/_history' }), 405);
  const base = await app.inject({ method: 'DELETE', url: '/fhir' });
  assertOutcome(t, base, 405);
  t.equal(base.headers.allow, 'GET, POST, HEAD');
  const search = await app.inject({ method: 'PUT', url: '/fhir/Patient/_search', headers: JSON_HEADERS, payload: '{}' });
  assertOutcome(t, search, 405);
  t.equal(search.headers.allow, 'POST');
});

t.test('inject: conditional delete DELETE [type]?criteria (3.1.0.7.1)', async (t) => {
  const { app } = injectApp(t);
  await app.inject({ method: 'PUT', url: '/fhir/Patient/p1', headers: JSON_HEADERS, payload: patientBody({ id: 'p1', identifier: [{ system: 'urn:mrn', value: 'A' }] }) });
  t.equal((await app.inject({ method: 'DELETE', url: '/fhir/Patient?identifier=urn:mrn|A' })).statusCode, 200);
  t.equal((await app.inject({ url: '/fhir/Patient/p1' })).statusCode, 410);
  assertOutcome(t, await app.inject({ method: 'DELETE', url: '/fhir/Patient' }), 400);
});

t.test('fhir-kit-client: delete then read is 410, vread still works', async (t) => {
  const { client } = await startServer(t);
  const created = (await client.create({ resourceType: 'Patient', body: patientBody() as never })) as Patient;
  const deleted = (await client.delete({ resourceType: 'Patient', id: created.id! })) as OperationOutcome;
  t.equal(deleted.resourceType, 'OperationOutcome');
  await assertClientOutcome(t, client.read({ resourceType: 'Patient', id: created.id! }), 410);
  const v1 = (await client.vread({ resourceType: 'Patient', id: created.id!, version: '1' })) as Patient;
  t.equal(v1.id, created.id);
  await assertClientOutcome(t, client.delete({ resourceType: 'Patient', id: 'never-was' }), 404);
  await assertClientOutcome(t, client.request('metadata', { method: 'DELETE' }), 405);
});
