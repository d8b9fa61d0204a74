// $validate (FHIR R4 "Operation $validate" on Resource): type and instance level; the structural result as an
// OperationOutcome (200 whether valid or not), nothing written; a missing reference target is a warning here.
import t from 'tap';
import type { OperationOutcome, Parameters } from '@medplum/fhirtypes';
import { assertClientOutcome, assertOutcome, bodyOf, injectApp, JSON_HEADERS, observationBody, patientBody, startServer } from '../test-server.ts';

t.test('inject: type-level $validate reports every error with its FHIRPath expression and writes nothing', async (t) => {
  const { app } = injectApp(t);
  const res = await app.inject({
    method: 'POST', url: '/fhir/Patient/$validate', headers: JSON_HEADERS,
    payload: { resourceType: 'Patient', gender: 'robot', birthDate: '25/12/1974', name: [{ family: ['x'] }], unknownThing: 1 },
  });
  t.equal(res.statusCode, 200, 'an invalid resource is a successful validation');
  const oo = bodyOf<OperationOutcome>(res);
  t.equal(oo.resourceType, 'OperationOutcome');
  const expressions = oo.issue.flatMap((i) => i.expression ?? []);
  for (const e of ['Patient.gender', 'Patient.birthDate', 'Patient.name[0].family', 'Patient.unknownThing']) t.ok(expressions.includes(e), e);
  t.ok(oo.issue.every((i) => i.severity === 'error'));
  t.equal((await app.inject({ url: '/fhir/_history' })).json().total, 0, 'nothing stored');

  const valid = bodyOf<OperationOutcome>(await app.inject({ method: 'POST', url: '/fhir/Patient/$validate', headers: JSON_HEADERS, payload: patientBody() }));
  t.same(valid.issue.map((i) => i.severity), ['information'], 'a valid resource: one informational issue');
  t.equal((await app.inject({ url: '/fhir/_history' })).json().total, 0, 'still nothing stored');
});

t.test('inject: a missing reference target is a warning in $validate, an error (422) on write', async (t) => {
  const { app } = injectApp(t);
  const obs = observationBody('nobody');
  const res = await app.inject({ method: 'POST', url: '/fhir/Observation/$validate', headers: JSON_HEADERS, payload: obs });
  t.equal(res.statusCode, 200);
  const oo = bodyOf<OperationOutcome>(res);
  t.equal(oo.issue.length, 1);
  t.equal(oo.issue[0].severity, 'warning');
  t.match(oo.issue[0].diagnostics, /Patient\/nobody/);
  assertOutcome(t, await app.inject({ method: 'POST', url: '/fhir/Observation', headers: JSON_HEADERS, payload: obs }), 422);
});

t.test('inject: a Parameters body with a `resource` part; instance level validates the body or the stored resource', async (t) => {
  const { app } = injectApp(t);
  const params: Parameters = { resourceType: 'Parameters', parameter: [{ name: 'resource', resource: { resourceType: 'Patient', gender: 'x' } as never }] };
  const wrapped = bodyOf<OperationOutcome>(await app.inject({ method: 'POST', url: '/fhir/Patient/$validate', headers: JSON_HEADERS, payload: params }));
  t.same(wrapped.issue.flatMap((i) => i.expression ?? []), ['Patient.gender']);

  await app.inject({ method: 'PUT', url: '/fhir/Patient/p1', headers: JSON_HEADERS, payload: patientBody({ id: 'p1' }) });
  const stored = await app.inject({ method: 'POST', url: '/fhir/Patient/p1/$validate' });
  t.equal(stored.statusCode, 200);
  t.equal(bodyOf<OperationOutcome>(stored).issue[0].severity, 'information', 'the stored resource is valid');
  const viaGet = await app.inject({ url: '/fhir/Patient/p1/$validate' });
  t.equal(viaGet.statusCode, 200, '$validate is read-only, so GET may invoke it');
  const body = bodyOf<OperationOutcome>(await app.inject({
    method: 'POST', url: '/fhir/Patient/p1/$validate', headers: JSON_HEADERS, payload: { resourceType: 'Patient', id: 'p1', active: 'no' },
  }));
  t.same(body.issue.flatMap((i) => i.expression ?? []), ['Patient.active'], 'instance level with a body validates the body');
});

t.test('inject: $validate failures', async (t) => {
  const { app } = injectApp(t);
  assertOutcome(t, await app.inject({ method: 'POST', url: '/fhir/Patient/$validate' }), 400);
  assertOutcome(t, await app.inject({ method: 'POST', url: '/fhir/Patient/$validate', headers: JSON_HEADERS, payload: { resourceType: 'Observation' } }), 400);
  assertOutcome(t, await app.inject({ method: 'POST', url: '/fhir/Patient/$validate', headers: JSON_HEADERS, payload: '{"resourceType"' }), 400);
  assertOutcome(t, await app.inject({ method: 'POST', url: '/fhir/Patient/nobody/$validate' }), 404);
  assertOutcome(t, await app.inject({ method: 'POST', url: '/fhir/Nope/$validate', headers: JSON_HEADERS, payload: { resourceType: 'Nope' } }), 404);
  assertOutcome(t, await app.inject({ method: 'POST', url: '/fhir/$validate', headers: JSON_HEADERS, payload: patientBody() }), 404, 'not-found');
  assertOutcome(t, await app.inject({ method: 'DELETE', url: '/fhir/Patient/$validate' }), 405);
});

t.test('fhir-kit-client: operation $validate at type and instance level', async (t) => {
  const { client } = await startServer(t);
  const invalid = (await client.operation({ name: '$validate', resourceType: 'Patient', input: { resourceType: 'Patient', gender: 'x' } })) as OperationOutcome;
  t.equal(invalid.resourceType, 'OperationOutcome');
  t.same(invalid.issue.map((i) => i.expression), [['Patient.gender']]);
  const created = await client.create({ resourceType: 'Patient', body: patientBody() as never });
  const instance = (await client.operation({ name: 'validate', resourceType: 'Patient', id: created.id, method: 'GET' })) as OperationOutcome;
  t.equal(instance.issue[0].severity, 'information');
  const warning = (await client.operation({ name: '$validate', resourceType: 'Observation', input: observationBody('nobody') as never })) as OperationOutcome;
  t.equal(warning.issue[0].severity, 'warning');
  await assertClientOutcome(t, client.operation({ name: '$validate', resourceType: 'Patient', id: 'nobody' }), 404);
});
