// vread: GET [base]/[type]/[id]/_history/[vid] (FHIR R4 3.1.0.3): every version stays readable, deleted ones too.
import t from 'tap';
import type { Patient } from '@medplum/fhirtypes';
import { assertClientOutcome, assertOutcome, bodyOf, injectApp, JSON_HEADERS, patientBody, responseOf, startServer, weakETag } from '../test-server.ts';

t.test('inject: each version is readable by its id, before and after delete', async (t) => {
  const { app } = injectApp(t);
  await app.inject({ method: 'PUT', url: '/fhir/Patient/p1', headers: JSON_HEADERS, payload: patientBody({ id: 'p1', gender: 'male' }) });
  await app.inject({ method: 'PUT', url: '/fhir/Patient/p1', headers: JSON_HEADERS, payload: patientBody({ id: 'p1', gender: 'female' }) });
  await app.inject({ method: 'DELETE', url: '/fhir/Patient/p1' });

  const v1 = await app.inject({ url: '/fhir/Patient/p1/_history/1' });
  t.equal(v1.statusCode, 200);
  t.equal(bodyOf<Patient>(v1).gender, 'male', 'version 1 as it was');
  t.equal(bodyOf<Patient>(v1).meta?.versionId, '1');
  t.equal(v1.headers.etag, weakETag(1));
  t.ok(v1.headers['last-modified']);
  const v2 = await app.inject({ url: '/fhir/Patient/p1/_history/2' });
  t.equal(bodyOf<Patient>(v2).gender, 'female', 'version 2 as it was');
  t.equal(v2.headers.etag, weakETag(2));

  assertOutcome(t, await app.inject({ url: '/fhir/Patient/p1/_history/3' }), 410, 'deleted');
  assertOutcome(t, await app.inject({ url: '/fhir/Patient/p1/_history/4' }), 404);
  assertOutcome(t, await app.inject({ url: '/fhir/Patient/p1/_history/0' }), 404);
  assertOutcome(t, await app.inject({ url: '/fhir/Patient/p1/_history/one' }), 404);
  assertOutcome(t, await app.inject({ url: '/fhir/Patient/nobody/_history/1' }), 404);
  assertOutcome(t, await app.inject({ url: '/fhir/Nope/p1/_history/1' }), 404);
  assertOutcome(t, await app.inject({ method: 'DELETE', url: '/fhir/Patient/p1/_history/1' }), 405);
});

t.test('fhir-kit-client: vread of old versions after delete', async (t) => {
  const { client } = await startServer(t);
  const created = (await client.create({ resourceType: 'Patient', body: patientBody() as never })) as Patient;
  await client.update({ resourceType: 'Patient', id: created.id!, body: { ...created, gender: 'female' } as never });
  await client.delete({ resourceType: 'Patient', id: created.id! });
  const v1 = (await client.vread({ resourceType: 'Patient', id: created.id!, version: '1' })) as Patient;
  t.equal(v1.gender, 'male');
  t.equal(responseOf(v1).headers.get('etag'), weakETag(1));
  const v2 = (await client.vread({ resourceType: 'Patient', id: created.id!, version: '2' })) as Patient;
  t.equal(v2.gender, 'female');
  await assertClientOutcome(t, client.vread({ resourceType: 'Patient', id: created.id!, version: '3' }), 410);
  await assertClientOutcome(t, client.vread({ resourceType: 'Patient', id: created.id!, version: '9' }), 404);
});
