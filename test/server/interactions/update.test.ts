// update: PUT [base]/[type]/[id] (FHIR R4 3.1.0.5): update-as-create with a client id (201) vs update (200),
// If-Match optimistic locking (412 when stale), id and type checks, conditional update PUT [type]?criteria.
import t from 'tap';
import type { OperationOutcome, Patient } from '@medplum/fhirtypes';
import {
  assertClientOutcome, assertOutcome, bodyOf, FHIR_JSON_UTF8, injectApp, JSON_HEADERS, observationBody, patientBody,
  responseOf, startServer, weakETag,
} from '../test-server.ts';

t.test('inject: PUT to a new id creates (201); PUT again updates (200) with the next version', async (t) => {
  const { app } = injectApp(t);
  const put = (body: object, headers: Record<string, string> = {}) =>
    app.inject({ method: 'PUT', url: '/fhir/Patient/chosen-id', headers: { ...JSON_HEADERS, ...headers }, payload: body });

  const created = await put(patientBody({ id: 'chosen-id' }));
  t.equal(created.statusCode, 201, 'update-as-create');
  t.equal(created.headers.location, 'http://localhost:80/fhir/Patient/chosen-id/_history/1');
  t.equal(created.headers.etag, weakETag(1));
  t.equal(bodyOf<Patient>(created).id, 'chosen-id', 'the client id is kept');

  const updated = await put(patientBody({ id: 'chosen-id', active: true, meta: { versionId: '77', tag: [{ code: 'kept' }] } }));
  t.equal(updated.statusCode, 200, 'an update of an existing resource');
  t.equal(updated.headers['content-type'], FHIR_JSON_UTF8);
  t.equal(updated.headers.etag, weakETag(2));
  t.ok(updated.headers['last-modified']);
  const body = bodyOf<Patient>(updated);
  t.equal(body.meta?.versionId, '2', 'the server assigns the version, not the body');
  t.same(body.meta?.tag, [{ code: 'kept' }], 'other meta is kept');
  t.equal(body.active, true);
  t.ok(Date.parse(body.meta!.lastUpdated!) >= Date.parse(bodyOf<Patient>(created).meta!.lastUpdated!));

  const minimal = await put(patientBody({ id: 'chosen-id' }), { prefer: 'return=minimal' });
  t.equal(minimal.statusCode, 200);
  t.equal(minimal.body, '');
  t.equal(minimal.headers.etag, weakETag(3));
  const oo = await put(patientBody({ id: 'chosen-id' }), { prefer: 'return=OperationOutcome' });
  t.equal(bodyOf<OperationOutcome>(oo).resourceType, 'OperationOutcome');
});

t.test('inject: If-Match optimistic locking (3.1.0.5.3)', async (t) => {
  const { app } = injectApp(t);
  const put = (headers: Record<string, string>) =>
    app.inject({ method: 'PUT', url: '/fhir/Patient/p1', headers: { ...JSON_HEADERS, ...headers }, payload: patientBody({ id: 'p1' }) });
  assertOutcome(t, await put({ 'if-match': 'W/"1"' }), 412, 'conflict');
  t.equal((await app.inject({ url: '/fhir/Patient/p1' })).statusCode, 404, 'a failed If-Match create wrote nothing');
  t.equal((await put({})).statusCode, 201);
  const ok = await put({ 'if-match': 'W/"1"' });
  t.equal(ok.statusCode, 200, 'the current version matches');
  t.equal(ok.headers.etag, weakETag(2));
  const stale = assertOutcome(t, await put({ 'if-match': 'W/"1"' }), 412, 'conflict');
  t.match(stale.issue[0].diagnostics, /W\/"2"/, 'names the current version');
  t.equal(bodyOf<Patient>(await app.inject({ url: '/fhir/Patient/p1' })).meta?.versionId, '2', 'the stale write changed nothing');
  assertOutcome(t, await put({ 'if-match': 'banana' }), 400);
});

t.test('inject: update after delete recreates with the next version (201)', async (t) => {
  const { app } = injectApp(t);
  await app.inject({ method: 'PUT', url: '/fhir/Patient/p1', headers: JSON_HEADERS, payload: patientBody({ id: 'p1' }) });
  await app.inject({ method: 'DELETE', url: '/fhir/Patient/p1' });
  const res = await app.inject({ method: 'PUT', url: '/fhir/Patient/p1', headers: JSON_HEADERS, payload: patientBody({ id: 'p1' }) });
  t.equal(res.statusCode, 201);
  t.equal(res.headers.etag, weakETag(3), 'versions continue through the deletion');
  t.equal((await app.inject({ url: '/fhir/Patient/p1' })).statusCode, 200);
});

t.test('inject: bad updates', async (t) => {
  const { app } = injectApp(t, { bodyLimit: 2048 });
  const put = (url: string, payload: unknown, contentType = 'application/fhir+json') =>
    app.inject({ method: 'PUT', url, headers: { 'content-type': contentType }, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });
  const idMismatch = assertOutcome(t, await put('/fhir/Patient/p1', patientBody({ id: 'p2' })), 400);
  t.same(idMismatch.issue[0].expression, ['id']);
  assertOutcome(t, await put('/fhir/Patient/p1', patientBody()), 400);
  assertOutcome(t, await put('/fhir/Patient/p1', { resourceType: 'Observation', id: 'p1' }), 400);
  assertOutcome(t, await put('/fhir/Patient/p1', '{"resourceType":"Patient","id":"p1"'), 400);
  const invalid = assertOutcome(t, await put('/fhir/Patient/p1', { resourceType: 'Patient', id: 'p1', active: 'yes', gender: 'x' }), 400);
  t.same(invalid.issue.flatMap((i) => i.expression ?? []).sort(), ['Patient.active', 'Patient.gender']);
  assertOutcome(t, await put('/fhir/Patient/bad_id!', patientBody({ id: 'bad_id!' })), 400);
  assertOutcome(t, await put('/fhir/Unknown/p1', { resourceType: 'Unknown', id: 'p1' }), 404);
  assertOutcome(t, await put('/fhir/Patient/p1', 'id=p1', 'text/plain'), 415);
  assertOutcome(t, await put('/fhir/Patient/p1', patientBody({ id: 'p1', text: { status: 'generated', div: 'x'.repeat(4000) } })), 413);
  assertOutcome(t, await put('/fhir/Observation/o1', observationBody('nobody', { id: 'o1' })), 422);
  t.equal((await app.inject({ url: '/fhir/_history' })).json().total, 0, 'no rejected update wrote anything');
});

t.test('inject: conditional update PUT [type]?criteria (3.1.0.5.2)', async (t) => {
  const { app } = injectApp(t);
  const identifier = [{ system: 'urn:mrn', value: 'MRN-7' }];
  const put = (body: object) =>
    app.inject({ method: 'PUT', url: '/fhir/Patient?identifier=urn:mrn|MRN-7', headers: JSON_HEADERS, payload: body });
  const created = await put(patientBody({ identifier }));
  t.equal(created.statusCode, 201, 'no match: created');
  const id = bodyOf<Patient>(created).id;
  const updated = await put(patientBody({ identifier, active: true }));
  t.equal(updated.statusCode, 200, 'one match: updated');
  t.equal(bodyOf<Patient>(updated).id, id);
  t.equal(bodyOf<Patient>(updated).meta?.versionId, '2');
  assertOutcome(t, await put(patientBody({ identifier, id: 'other' })), 400);
  await app.inject({ method: 'PUT', url: '/fhir/Patient/dup', headers: JSON_HEADERS, payload: patientBody({ id: 'dup', identifier }) });
  assertOutcome(t, await put(patientBody({ identifier })), 412, 'multiple-matches');
});

t.test('fhir-kit-client: update-as-create, update, stale If-Match', async (t) => {
  const { client, baseUrl } = await startServer(t);
  const created = (await client.update({ resourceType: 'Patient', id: 'kit-1', body: patientBody({ id: 'kit-1' }) as never })) as Patient;
  t.equal(responseOf(created).status, 201);
  t.equal(responseOf(created).headers.get('location'), `${baseUrl}/Patient/kit-1/_history/1`);
  const updated = (await client.update({ resourceType: 'Patient', id: 'kit-1', body: { ...created, active: true } as never })) as Patient;
  t.equal(responseOf(updated).status, 200);
  t.equal(updated.meta?.versionId, '2');
  t.equal(responseOf(updated).headers.get('etag'), weakETag(2));
  const locked = (await client.update({
    resourceType: 'Patient', id: 'kit-1', body: updated as never, options: { headers: { 'if-match': weakETag(2) } },
  })) as Patient;
  t.equal(locked.meta?.versionId, '3');
  await assertClientOutcome(t, client.update({
    resourceType: 'Patient', id: 'kit-1', body: updated as never, options: { headers: { 'if-match': weakETag(2) } },
  }), 412);
  await assertClientOutcome(t, client.update({ resourceType: 'Patient', id: 'kit-1', body: patientBody({ id: 'kit-2' }) as never }), 400);
});
