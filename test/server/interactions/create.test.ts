// create: POST [base]/[type] (FHIR R4 3.1.0.4): server-assigned id, 201 + Location + ETag + Last-Modified,
// Prefer return=, validation of the body, referential integrity, conditional create (If-None-Exist).
import t from 'tap';
import type { Observation, OperationOutcome, Patient } from '@medplum/fhirtypes';
import {
  assertClientOutcome, assertOutcome, bodyOf, FHIR_JSON_UTF8, injectApp, JSON_HEADERS, observationBody, patientBody,
  responseOf, startServer, weakETag,
} from '../test-server.ts';

t.test('inject: create answers 201 with Location, ETag, Last-Modified and the stored resource', async (t) => {
  const { app } = injectApp(t);
  // An id in the body is ignored: the server assigns one (3.1.0.4).
  const res = await app.inject({ method: 'POST', url: '/fhir/Patient', headers: JSON_HEADERS, payload: patientBody({ id: 'client-chosen' }) });
  t.equal(res.statusCode, 201);
  t.equal(res.headers['content-type'], FHIR_JSON_UTF8);
  const created = bodyOf<Patient>(res);
  t.ok(created.id, 'has an id');
  t.not(created.id, 'client-chosen', 'server assigned the id');
  t.equal(created.meta?.versionId, '1');
  t.match(created.name, [{ family: 'Chalmers', given: ['Peter'] }]);
  t.equal(res.headers.location, `http://localhost:80/fhir/Patient/${created.id}/_history/1`, 'absolute Location with the version');
  t.equal(res.headers.etag, weakETag(1));
  const lastModified = String(res.headers['last-modified']);
  t.match(lastModified, /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/, 'an HTTP-date');
  t.equal(Date.parse(lastModified), Math.floor(Date.parse(created.meta!.lastUpdated!) / 1000) * 1000, 'Last-Modified = meta.lastUpdated');

  const location = new URL(String(res.headers.location));
  const again = await app.inject({ url: location.pathname });
  t.equal(again.statusCode, 200, 'the Location can be read');
  t.same(bodyOf(again), created, 'and holds what create returned');
  const unversioned = await app.inject({ url: `/fhir/Patient/${created.id}` });
  t.same(bodyOf(unversioned), created);
});

t.test('inject: Prefer return=minimal | representation | OperationOutcome (3.1.0.8.2)', async (t) => {
  const { app } = injectApp(t);
  const post = (prefer?: string) =>
    app.inject({ method: 'POST', url: '/fhir/Patient', headers: { ...JSON_HEADERS, ...(prefer ? { prefer } : {}) }, payload: patientBody() });

  const minimal = await post('return=minimal');
  t.equal(minimal.statusCode, 201);
  t.equal(minimal.body, '', 'minimal: no body');
  t.match(String(minimal.headers.location), /\/fhir\/Patient\/[^/]+\/_history\/1$/, 'minimal: still a Location');
  t.equal(minimal.headers.etag, weakETag(1));

  const representation = await post('return=representation');
  t.equal(representation.statusCode, 201);
  t.equal(bodyOf(representation).resourceType, 'Patient');

  const oo = await post('return=OperationOutcome');
  t.equal(oo.statusCode, 201);
  const outcome = bodyOf<OperationOutcome>(oo);
  t.equal(outcome.resourceType, 'OperationOutcome');
  t.equal(outcome.issue[0].severity, 'information');
  t.ok(oo.headers.location, 'OperationOutcome: still a Location');

  const none = await post();
  t.equal(bodyOf(none).resourceType, 'Patient', 'default is the representation');
});

t.test('inject: content types a client may send', async (t) => {
  const { app } = injectApp(t);
  for (const type of ['application/fhir+json', 'application/json', 'application/json; charset=utf-8', 'application/fhir+json; fhirVersion=4.0']) {
    const res = await app.inject({ method: 'POST', url: '/fhir/Patient', headers: { 'content-type': type }, payload: JSON.stringify(patientBody()) });
    t.equal(res.statusCode, 201, type);
    t.equal(res.headers['content-type'], FHIR_JSON_UTF8, `${type}: answered as FHIR JSON`);
  }
});

t.test('inject: bad input gets the spec status and an OperationOutcome', async (t) => {
  const { app } = injectApp(t, { bodyLimit: 4096 });
  const post = (url: string, payload: string, contentType = 'application/fhir+json') =>
    app.inject({ method: 'POST', url, headers: { 'content-type': contentType }, payload });

  assertOutcome(t, await post('/fhir/Patient', '{"resourceType": "Patient",'), 400, 'invalid');
  assertOutcome(t, await post('/fhir/Patient', ''), 400);
  assertOutcome(t, await post('/fhir/Patient', '[]'), 400);
  assertOutcome(t, await post('/fhir/Patient', '"Patient"'), 400);
  assertOutcome(t, await post('/fhir/Patient', '{"name": []}'), 400);
  const mismatch = assertOutcome(t, await post('/fhir/Patient', JSON.stringify({ resourceType: 'Observation' })), 400);
  t.same(mismatch.issue[0].expression, ['resourceType']);

  // Every schema error is reported, each with its FHIRPath expression - not just the first.
  const invalid = await post('/fhir/Patient', JSON.stringify({ resourceType: 'Patient', gender: 'x', birthDate: 1974, name: [{ given: 'Peter' }] }));
  const oo = assertOutcome(t, invalid, 400);
  const expressions = oo.issue.flatMap((i) => i.expression ?? []);
  t.ok(expressions.includes('Patient.gender'), 'gender reported');
  t.ok(expressions.includes('Patient.birthDate'), 'birthDate reported');
  t.ok(expressions.some((e) => e.startsWith('Patient.name[0].given')), 'name.given reported');
  t.ok(oo.issue.every((i) => i.severity === 'error'));

  assertOutcome(t, await post('/fhir/NotAType', JSON.stringify({ resourceType: 'NotAType' })), 404, 'not-found');
  assertOutcome(t, await post('/fhir/Patient', 'resourceType=Patient', 'text/plain'), 415, 'not-supported');
  assertOutcome(t, await post('/fhir/Patient', 'resourceType=Patient', 'application/x-www-form-urlencoded'), 415);
  assertOutcome(t, await post('/fhir/Patient', '[]', 'application/json-patch+json'), 415);
  assertOutcome(t, await post('/fhir/Patient', JSON.stringify(patientBody({ text: { status: 'generated', div: 'x'.repeat(5000) } }))), 413, 'too-costly');

  // A reference to a resource this server does not hold is rejected (HAPI's default), 422.
  const dangling = assertOutcome(t, await post('/fhir/Observation', JSON.stringify(observationBody('no-such-patient'))), 422);
  t.match(dangling.issue[0].diagnostics, /Patient\/no-such-patient/);
  t.equal((await app.inject({ url: '/fhir/_history' })).json().total, 0, 'nothing was written by any rejected create');
});

t.test('inject: a reference to an existing resource is accepted; the setting turns the check off', async (t) => {
  const { app } = injectApp(t);
  const patient = bodyOf<Patient>(await app.inject({ method: 'POST', url: '/fhir/Patient', headers: JSON_HEADERS, payload: patientBody() }));
  const ok = await app.inject({ method: 'POST', url: '/fhir/Observation', headers: JSON_HEADERS, payload: observationBody(patient.id!) });
  t.equal(ok.statusCode, 201);
  t.equal(bodyOf<Observation>(ok).subject?.reference, `Patient/${patient.id}`);
  const absolute = await app.inject({
    method: 'POST', url: '/fhir/Observation', headers: JSON_HEADERS,
    payload: observationBody(patient.id!, { subject: { reference: `http://localhost:80/fhir/Patient/${patient.id}` } }),
  });
  t.equal(absolute.statusCode, 201, 'an absolute reference to this server counts as local');
  const contained = await app.inject({
    method: 'POST', url: '/fhir/Observation', headers: JSON_HEADERS,
    payload: observationBody('x', { contained: [{ resourceType: 'Patient', id: 'p' }], subject: { reference: '#p' } }),
  });
  t.equal(contained.statusCode, 201, 'a contained reference needs no stored target');

  const { app: lax } = injectApp(t, { settings: { enforceReferentialIntegrity: false } });
  const res = await lax.inject({ method: 'POST', url: '/fhir/Observation', headers: JSON_HEADERS, payload: observationBody('no-such-patient') });
  t.equal(res.statusCode, 201, 'enforceReferentialIntegrity: false accepts a dangling reference');
});

t.test('inject: conditional create with If-None-Exist (3.1.0.4.1)', async (t) => {
  const { app } = injectApp(t);
  const identifier = [{ system: 'urn:mrn', value: 'MRN-42' }];
  const post = () => app.inject({
    method: 'POST', url: '/fhir/Patient', headers: { ...JSON_HEADERS, 'if-none-exist': 'identifier=urn:mrn|MRN-42' }, payload: patientBody({ identifier }),
  });
  const first = await post();
  t.equal(first.statusCode, 201, 'no match: created');
  const second = await post();
  t.equal(second.statusCode, 200, 'one match: 200, nothing created');
  t.equal(bodyOf(second).id, bodyOf(first).id);
  await app.inject({ method: 'PUT', url: '/fhir/Patient/dup', headers: JSON_HEADERS, payload: patientBody({ id: 'dup', identifier }) });
  assertOutcome(t, await post(), 412, 'multiple-matches');
});

t.test('fhir-kit-client: create, Prefer, and failures over a real socket', async (t) => {
  const { client, baseUrl } = await startServer(t);
  const created = (await client.create({ resourceType: 'Patient', body: patientBody() as never })) as Patient;
  t.ok(created.id);
  t.equal(created.meta?.versionId, '1');
  const response = responseOf(created);
  t.equal(response.status, 201);
  t.equal(response.headers.get('content-type'), FHIR_JSON_UTF8);
  t.equal(response.headers.get('location'), `${baseUrl}/Patient/${created.id}/_history/1`);
  t.equal(response.headers.get('etag'), weakETag(1));
  t.ok(response.headers.get('last-modified'));
  const read = (await client.read({ resourceType: 'Patient', id: created.id! })) as Patient;
  t.same(read, created);

  const obs = (await client.create({ resourceType: 'Observation', body: observationBody(created.id!) as never })) as Observation;
  t.equal(obs.subject?.reference, `Patient/${created.id}`);

  const minimal = await client.create({ resourceType: 'Patient', body: patientBody() as never, options: { headers: { prefer: 'return=minimal' } } });
  t.same(minimal, {}, 'minimal: empty body');
  t.match(responseOf(minimal).headers.get('location'), /\/Patient\/[^/]+\/_history\/1$/);

  const oo = (await client.create({ resourceType: 'Patient', body: patientBody() as never, options: { headers: { prefer: 'return=OperationOutcome' } } })) as OperationOutcome;
  t.equal(oo.resourceType, 'OperationOutcome');

  const invalid = await assertClientOutcome(t, client.create({ resourceType: 'Patient', body: { resourceType: 'Patient', gender: 'x' } as never }), 400);
  t.same(invalid.issue[0].expression, ['Patient.gender']);
  await assertClientOutcome(t, client.create({ resourceType: 'Observation', body: observationBody('nobody') as never }), 422);
  await assertClientOutcome(t, client.create({ resourceType: 'Patient', body: { resourceType: 'Observation' } as never }), 400);
});

t.test('fhir-kit-client: a base URL with a trailing slash works the same', async (t) => {
  const { slashClient, baseUrl } = await startServer(t);
  const created = (await slashClient.create({ resourceType: 'Patient', body: patientBody() as never })) as Patient;
  t.equal(responseOf(created).status, 201);
  t.equal(responseOf(created).headers.get('location'), `${baseUrl}/Patient/${created.id}/_history/1`, 'Location has no doubled slash');
  const read = (await slashClient.read({ resourceType: 'Patient', id: created.id! })) as Patient;
  t.equal(read.id, created.id);
});
