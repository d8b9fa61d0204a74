// capabilities: GET [base]/metadata (FHIR R4 3.1.0.12): a valid CapabilityStatement generated from the registries
// the server runs on - every resource type the validator knows, every registered operation.
import t from 'tap';
import type { CapabilityStatement } from '@medplum/fhirtypes';
import { resourceTypes, validateResource } from '../../../resources/validation/validate.ts';
import { assertClientOutcome, assertOutcome, bodyOf, FHIR_JSON_UTF8, injectApp, responseOf, startServer } from '../test-server.ts';

t.test('inject: /metadata is a valid CapabilityStatement listing every resource type', async (t) => {
  const { app, context } = injectApp(t);
  const res = await app.inject({ url: '/fhir/metadata' });
  t.equal(res.statusCode, 200);
  t.equal(res.headers['content-type'], FHIR_JSON_UTF8);
  const cs = bodyOf<CapabilityStatement>(res);
  t.equal(cs.resourceType, 'CapabilityStatement');
  t.equal(cs.fhirVersion, '4.0.1');
  t.equal(cs.kind, 'instance');
  t.ok(cs.format?.includes('application/fhir+json'));
  t.ok(cs.patchFormat?.includes('application/json-patch+json'));
  t.same(validateResource(cs), [], 'the statement itself validates against the R4 schema');

  const rest = cs.rest![0];
  t.equal(rest.mode, 'server');
  const listed = rest.resource!.map((r) => r.type as string);
  t.same([...listed].sort(), [...resourceTypes].sort(), 'exactly the validator\'s resource types');
  t.ok(listed.length > 140, 'all of R4, not a hand-kept few');
  for (const type of ['Patient', 'Observation', 'MedicationRequest', 'DocumentReference']) t.ok(listed.includes(type), type);

  const patient = rest.resource!.find((r) => r.type === 'Patient')!;
  const codes = patient.interaction!.map((i) => i.code);
  for (const code of ['read', 'vread', 'update', 'patch', 'delete', 'history-instance', 'history-type', 'create', 'search-type']) {
    t.ok(codes.includes(code as never), `Patient supports ${code}`);
  }
  t.equal(patient.versioning, 'versioned-update');
  t.equal(patient.updateCreate, true);
  t.same(
    patient.searchParam?.map((p) => p.name).sort(),
    context.search.capabilities('Patient').map((p) => p.name).sort(),
    'search parameters come from the search registry',
  );
  const ops = context.operations.all()
    .filter((op) => op.levels.some((l) => l !== 'system') && (!op.types || op.types.includes('Patient')))
    .map((op) => op.name);
  t.ok(ops.includes('validate'));
  for (const name of ops) t.ok(patient.operation?.some((o) => o.name === name), `Patient lists $${name}`);
  t.same(rest.interaction?.map((i) => i.code).sort(), ['batch', 'history-system', 'search-system', 'transaction']);
});

t.test('inject: /metadata negotiation and method checks', async (t) => {
  const { app } = injectApp(t);
  for (const url of ['/fhir/metadata', '/fhir/metadata/', '/fhir//metadata', '/fhir/metadata?_format=json', '/fhir/metadata?_format=application/fhir+json']) {
    const res = await app.inject({ url });
    t.equal(res.statusCode, 200, url);
    t.equal(res.headers['content-type'], FHIR_JSON_UTF8, url);
  }
  const summary = bodyOf<CapabilityStatement>(await app.inject({ url: '/fhir/metadata?_summary=true' }));
  t.notOk(summary.rest![0].resource![0].interaction, '_summary=true drops per-type detail');
  assertOutcome(t, await app.inject({ method: 'DELETE', url: '/fhir/metadata' }), 405);
  assertOutcome(t, await app.inject({ method: 'POST', url: '/fhir/metadata', headers: { 'content-type': 'application/fhir+json' }, payload: '{}' }), 405);
  assertOutcome(t, await app.inject({ url: '/fhir/metadata?_format=xml' }), 406);
});

t.test('fhir-kit-client: capabilityStatement()', async (t) => {
  const { client, slashClient } = await startServer(t);
  const cs = (await client.capabilityStatement()) as CapabilityStatement;
  t.equal(cs.resourceType, 'CapabilityStatement');
  t.equal(responseOf(cs).headers.get('content-type'), FHIR_JSON_UTF8);
  t.ok(cs.rest?.[0].resource?.some((r) => r.type === 'Observation'));
  t.equal(((await slashClient.capabilityStatement()) as CapabilityStatement).resourceType, 'CapabilityStatement');
  await assertClientOutcome(t, client.request('metadata', { method: 'DELETE' }), 405);
});
