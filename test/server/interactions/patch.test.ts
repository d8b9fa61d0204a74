// patch: PATCH [base]/[type]/[id] with JSON Patch (FHIR R4 3.1.0.6, RFC 6902): add, replace, remove, test;
// a failing `test` is 422; a non-patch content type is 415; the result is validated like any write.
import t, { type Test } from 'tap';
import type { Patient } from '@medplum/fhirtypes';
import {
  assertClientOutcome, assertOutcome, bodyOf, injectApp, JSON_HEADERS, PATCH_HEADERS, patientBody, responseOf, startServer, weakETag,
} from '../test-server.ts';

async function seeded(t: Test) {
  const built = injectApp(t);
  await built.app.inject({
    method: 'PUT', url: '/fhir/Patient/p1', headers: JSON_HEADERS,
    payload: patientBody({ id: 'p1', telecom: [{ system: 'phone', value: '555-1234' }] }),
  });
  const patch = (ops: unknown, headers: Record<string, string> = PATCH_HEADERS, url = '/fhir/Patient/p1') =>
    built.app.inject({ method: 'PATCH', url, headers, payload: JSON.stringify(ops) });
  return { ...built, patch };
}

t.test('inject: add, replace, remove and a passing test apply in order as one new version', async (t) => {
  const { app, patch } = await seeded(t);
  const res = await patch([
    { op: 'test', path: '/gender', value: 'male' },
    { op: 'add', path: '/active', value: true },
    { op: 'replace', path: '/name/0/family', value: 'Chalmers-Smith' },
    { op: 'add', path: '/name/0/given/-', value: 'James' },
    { op: 'remove', path: '/telecom' },
  ]);
  t.equal(res.statusCode, 200);
  t.equal(res.headers.etag, weakETag(2));
  const patched = bodyOf<Patient>(res);
  t.equal(patched.active, true);
  t.same(patched.name, [{ family: 'Chalmers-Smith', given: ['Peter', 'James'] }]);
  t.notOk('telecom' in patched, 'removed');
  t.equal(patched.meta?.versionId, '2');
  t.same(bodyOf(await app.inject({ url: '/fhir/Patient/p1' })), patched, 'stored as returned');
  t.equal(bodyOf<Patient>(await app.inject({ url: '/fhir/Patient/p1/_history/1' })).active, undefined, 'version 1 untouched');
});

t.test('inject: a failing test op is 422 and changes nothing', async (t) => {
  const { app, patch } = await seeded(t);
  const oo = assertOutcome(t, await patch([
    { op: 'add', path: '/active', value: true },
    { op: 'test', path: '/gender', value: 'female' },
  ]), 422);
  t.match(oo.issue[0].diagnostics, /test/i);
  const current = bodyOf<Patient>(await app.inject({ url: '/fhir/Patient/p1' }));
  t.equal(current.meta?.versionId, '1', 'no new version');
  t.equal(current.active, undefined, 'the earlier add was not applied');
});

t.test('inject: bad patches', async (t) => {
  const { patch } = await seeded(t);
  assertOutcome(t, await patch([{ op: 'add', path: '/active', value: true }], JSON_HEADERS), 415, 'not-supported');
  assertOutcome(t, await patch([{ op: 'add', path: '/active', value: true }], { 'content-type': 'application/json' }), 415);
  assertOutcome(t, await patch({ op: 'add', path: '/active', value: true }), 400);
  assertOutcome(t, await patch([{ op: 'frobnicate', path: '/active' }]), 400);
  assertOutcome(t, await patch([{ op: 'remove', path: '/birthDate/nope' }]), 400);
  assertOutcome(t, await patch([{ op: 'add', path: '/__proto__/polluted', value: 1 }]), 400);
  // The result must still be a valid resource of the same type and id.
  const invalid = assertOutcome(t, await patch([{ op: 'replace', path: '/gender', value: 'robot' }]), 400);
  t.same(invalid.issue[0].expression, ['Patient.gender']);
  assertOutcome(t, await patch([{ op: 'replace', path: '/id', value: 'p2' }]), 422);
  assertOutcome(t, await patch([{ op: 'replace', path: '/resourceType', value: 'Person' }]), 422);
  assertOutcome(t, await patch([{ op: 'replace', path: '', value: null }]), 422);
  assertOutcome(t, await patch([{ op: 'add', path: '/active', value: true }], PATCH_HEADERS, '/fhir/Patient/nobody'), 404);
  assertOutcome(t, await patch([{ op: 'add', path: '/active', value: true }], PATCH_HEADERS, '/fhir/Nope/p1'), 404);
  assertOutcome(t, await patch([{ op: 'add', path: '/generalPractitioner', value: [{ reference: 'Practitioner/ghost' }] }]), 422);
  assertOutcome(t, await patch([{ op: 'add', path: '/active', value: true }], { ...PATCH_HEADERS, 'if-match': 'W/"9"' }), 412);
});

t.test('inject: patching a deleted resource is 410', async (t) => {
  const { app, patch } = await seeded(t);
  await app.inject({ method: 'DELETE', url: '/fhir/Patient/p1' });
  assertOutcome(t, await patch([{ op: 'add', path: '/active', value: true }]), 410);
});

t.test('inject: conditional patch PATCH [type]?criteria', async (t) => {
  const { app, patch } = await seeded(t);
  await app.inject({ method: 'PUT', url: '/fhir/Patient/p1', headers: JSON_HEADERS, payload: patientBody({ id: 'p1', identifier: [{ system: 'urn:mrn', value: 'P' }] }) });
  const res = await patch([{ op: 'add', path: '/active', value: false }], PATCH_HEADERS, '/fhir/Patient?identifier=urn:mrn|P');
  t.equal(res.statusCode, 200);
  t.equal(bodyOf<Patient>(res).active, false);
});

t.test('fhir-kit-client: JSON Patch', async (t) => {
  const { client } = await startServer(t);
  const created = (await client.create({ resourceType: 'Patient', body: patientBody() as never })) as Patient;
  const patched = (await client.patch({
    resourceType: 'Patient', id: created.id!,
    jsonPatch: [{ op: 'add', path: '/active', value: true }, { op: 'replace', path: '/gender', value: 'female' }],
  })) as Patient;
  t.equal(responseOf(patched).status, 200);
  t.equal(patched.active, true);
  t.equal(patched.gender, 'female');
  t.equal(patched.meta?.versionId, '2');
  await assertClientOutcome(t, client.patch({ resourceType: 'Patient', id: created.id!, jsonPatch: [{ op: 'test', path: '/gender', value: 'male' }] }), 422);
  await assertClientOutcome(t, client.patch({ resourceType: 'Patient', id: created.id!, jsonPatch: [{ op: 'remove', path: '/nothing/here' }] }), 400);
  await assertClientOutcome(t, client.request(`Patient/${created.id}`, {
    method: 'PATCH', body: [{ op: 'add', path: '/active', value: false }], options: { headers: { 'content-type': 'application/fhir+json' } },
  }), 415);
});
