// Every failure is an OperationOutcome with the status FHIR R4 3.1.0.4 assigns, and nothing a client sends is a 5xx
// (issue 2, "Errors"). One table row per status, then a property test that throws random requests at the app.
import t, { type Test } from 'tap';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { assertClientOutcome, assertOutcome, FHIR_JSON_UTF8, injectApp, JSON_HEADERS, observationBody, PATCH_HEADERS, patientBody, startServer } from '../test-server.ts';
import { toFhirError } from '../../../server/http/errors.ts';

const json = (payload: unknown, headers: Record<string, string> = JSON_HEADERS) => ({ headers, payload: JSON.stringify(payload) });

/** [what, request, status, issue code]: requests against a server holding Patient/p1 (version 2) and Patient/gone (deleted). */
const STATUS_TABLE: [string, InjectOptions, number, string?][] = [
  ['malformed JSON', { method: 'POST', url: '/fhir/Patient', headers: JSON_HEADERS, payload: '{"resourceType":' }, 400, 'invalid'],
  ['invalid resource', { method: 'POST', url: '/fhir/Patient', ...json({ resourceType: 'Patient', gender: 42 }) }, 400],
  ['id mismatch', { method: 'PUT', url: '/fhir/Patient/p1', ...json(patientBody({ id: 'p9' })) }, 400],
  ['resourceType mismatch', { method: 'PUT', url: '/fhir/Patient/p1', ...json({ resourceType: 'Practitioner', id: 'p1' }) }, 400],
  ['malformed %-escape in the path', { method: 'GET', url: '/fhir/Patient/%E0%A4%A' }, 400, 'invalid'],
  ['bad _count', { method: 'GET', url: '/fhir/_history?_count=many' }, 400],
  ['unknown type', { method: 'GET', url: '/fhir/Spaceship/1' }, 404, 'not-found'],
  ['unknown id', { method: 'GET', url: '/fhir/Patient/nobody' }, 404, 'not-found'],
  ['nothing at this path', { method: 'GET', url: '/fhir/Patient/p1/_history/1/extra' }, 404, 'not-found'],
  ['outside the FHIR base', { method: 'GET', url: '/not-fhir' }, 404, 'not-found'],
  ['unknown operation', { method: 'POST', url: '/fhir/Patient/$frobnicate', ...json({}) }, 404],
  ['DELETE /metadata', { method: 'DELETE', url: '/fhir/metadata' }, 405, 'not-supported'],
  ['PUT _history', { method: 'PUT', url: '/fhir/Patient/p1/_history', ...json({}) }, 405],
  ['XML asked for', { method: 'GET', url: '/fhir/Patient/p1?_format=xml' }, 406, 'not-supported'],
  ['XML accepted only', { method: 'GET', url: '/fhir/Patient/p1', headers: { accept: 'application/fhir+xml' } }, 406],
  ['read after delete', { method: 'GET', url: '/fhir/Patient/gone' }, 410, 'deleted'],
  ['stale If-Match', { method: 'PUT', url: '/fhir/Patient/p1', ...json(patientBody({ id: 'p1' }), { ...JSON_HEADERS, 'if-match': 'W/"1"' }) }, 412, 'conflict'],
  ['body above the limit', { method: 'POST', url: '/fhir/Patient', ...json(patientBody({ text: { status: 'generated', div: 'x'.repeat(70_000) } })) }, 413, 'too-costly'],
  ['text/plain body', { method: 'POST', url: '/fhir/Patient', headers: { 'content-type': 'text/plain' }, payload: '{}' }, 415, 'not-supported'],
  ['PATCH with a non-patch type', { method: 'PATCH', url: '/fhir/Patient/p1', ...json([{ op: 'add', path: '/active', value: true }]) }, 415],
  ['reference to a missing resource', { method: 'POST', url: '/fhir/Observation', ...json(observationBody('nobody')) }, 422],
  ['JSON Patch test failure', { method: 'PATCH', url: '/fhir/Patient/p1', ...json([{ op: 'test', path: '/gender', value: 'female' }], PATCH_HEADERS) }, 422],
];

async function seededApp(t: Test) {
  const built = injectApp(t, { bodyLimit: 64 * 1024 });
  const put = (id: string) => built.app.inject({ method: 'PUT', url: `/fhir/Patient/${id}`, ...json(patientBody({ id })) });
  await put('p1');
  await put('p1');
  await put('gone');
  await built.app.inject({ method: 'DELETE', url: '/fhir/Patient/gone' });
  return built;
}

t.test('inject: each error status, as an OperationOutcome', async (t) => {
  const { app } = await seededApp(t);
  for (const [what, request, status, code] of STATUS_TABLE) {
    t.test(`${status} ${what}`, async (t) => {
      assertOutcome(t, await app.inject(request), status, code);
    });
  }
});

t.test('fhir-kit-client: the same error statuses over a socket', async (t) => {
  const { client, app } = await startServer(t, { bodyLimit: 64 * 1024 });
  await app.inject({ method: 'PUT', url: '/fhir/Patient/p1', ...json(patientBody({ id: 'p1' })) });
  await app.inject({ method: 'PUT', url: '/fhir/Patient/p1', ...json(patientBody({ id: 'p1' })) });
  await app.inject({ method: 'PUT', url: '/fhir/Patient/gone', ...json(patientBody({ id: 'gone' })) });
  await app.inject({ method: 'DELETE', url: '/fhir/Patient/gone' });
  await assertClientOutcome(t, client.create({ resourceType: 'Patient', body: { resourceType: 'Patient', gender: 42 } }), 400);
  await assertClientOutcome(t, client.request('Patient', { method: 'POST', body: '{"resourceType":', options: { headers: { 'content-type': 'application/fhir+json' } } }), 400);
  await assertClientOutcome(t, client.update({ resourceType: 'Patient', id: 'p1', body: patientBody({ id: 'p9' }) as never }), 400);
  await assertClientOutcome(t, client.read({ resourceType: 'Patient', id: 'nobody' }), 404);
  await assertClientOutcome(t, client.request('Spaceship/1'), 404);
  await assertClientOutcome(t, client.request('metadata', { method: 'DELETE' }), 405);
  await assertClientOutcome(t, client.read({ resourceType: 'Patient', id: 'p1', options: { headers: { accept: 'application/fhir+xml' } } }), 406);
  await assertClientOutcome(t, client.read({ resourceType: 'Patient', id: 'gone' }), 410);
  await assertClientOutcome(t, client.update({
    resourceType: 'Patient', id: 'p1', body: patientBody({ id: 'p1' }) as never, options: { headers: { 'if-match': 'W/"1"' } },
  }), 412);
  await assertClientOutcome(t, client.create({ resourceType: 'Patient', body: patientBody({ text: { status: 'generated', div: 'x'.repeat(70_000) } }) as never }), 413);
  await assertClientOutcome(t, client.request('Patient', { method: 'POST', body: 'hello', options: { headers: { 'content-type': 'text/plain' } } }), 415);
  await assertClientOutcome(t, client.create({ resourceType: 'Observation', body: observationBody('nobody') as never }), 422);
  await assertClientOutcome(t, client.patch({ resourceType: 'Patient', id: 'p1', jsonPatch: [{ op: 'test', path: '/gender', value: 'female' }] }), 422);
});

t.test('toFhirError: Fastify client errors keep their status, anything else is a 500 OperationOutcome', async (t) => {
  const tooLarge = Object.assign(new Error('Request body is too large'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 });
  t.equal(toFhirError(tooLarge).status, 413);
  t.equal(toFhirError(Object.assign(new Error('x'), { statusCode: 418 })).status, 418);
  const crash = toFhirError(new TypeError('boom'));
  t.equal(crash.status, 500);
  t.equal(crash.outcome.issue[0].severity, 'fatal');
});

// ---- Property test: random requests never get a 5xx, and every error is an OperationOutcome. ----

const TYPES = ['Patient', 'Observation', 'Encounter', 'Bundle', 'Parameters', 'OperationOutcome', 'Nope', 'patient', ''];
const IDS = ['p1', 'gone', 'nobody', 'a.b-c', '_history', '_search', '$validate', 'metadata', '%20', '%2F', '..', 'x'.repeat(70), '🙂'];
const segment = fc.oneof(
  fc.constantFrom(...TYPES, ...IDS, '_history', '1', '2', '99', '$validate', '$everything', '$meta', 'metadata', '_session'),
  fc.string({ maxLength: 8 }).map(encodeURIComponent),
);
const path = fc.array(segment, { maxLength: 5 }).map((s) => `/fhir/${s.join('/')}`);
const queryParam = fc.tuple(
  fc.constantFrom('_format', '_pretty', '_count', '_offset', '_since', '_at', '_summary', '_id', 'name', 'identifier', '_sort', '_include', 'subject:Patient.name', '_elements'),
  fc.oneof(fc.constantFrom('json', 'xml', 'true', '-1', '0', '5', '1e99', '2024-01-01', 'ge2024', 'Patient:subject', 'urn|x', '%', ''), fc.string({ maxLength: 10 })),
);
const query = fc.array(queryParam, { maxLength: 3 }).map((q) => (q.length ? `?${new URLSearchParams(q).toString()}` : ''));
const contentType = fc.constantFrom(
  'application/fhir+json', 'application/json', 'application/json-patch+json', 'application/x-www-form-urlencoded',
  'text/plain', 'application/fhir+xml', 'application/json; charset=latin1', 'multipart/form-data; boundary=x', '',
);
const resourceLike = fc.oneof(
  fc.constant(patientBody({ id: 'p1' })),
  fc.record({ resourceType: fc.constantFrom(...TYPES), id: fc.constantFrom(...IDS) }, { requiredKeys: [] }),
  fc.record({
    resourceType: fc.constant('Patient'), id: fc.constantFrom('p1', 'new', 'gone'),
    gender: fc.oneof(fc.constant('male'), fc.jsonValue()), active: fc.jsonValue(), name: fc.jsonValue(),
    generalPractitioner: fc.constantFrom([{ reference: 'Practitioner/x' }], [{ reference: 'Patient/p1' }], [{ reference: 42 }]),
  }, { requiredKeys: ['resourceType'] }),
  fc.array(fc.record({ op: fc.constantFrom('add', 'remove', 'replace', 'test', 'move', 'copy', 'nope'), path: fc.constantFrom('', '/', '/active', '/name/0', '/id', '/__proto__/x', '/meta/versionId'), value: fc.jsonValue(), from: fc.constantFrom('/name', '/zz') }, { requiredKeys: ['op'] }), { maxLength: 3 }),
  fc.constant({ resourceType: 'Bundle', type: 'transaction', entry: [{ request: { method: 'POST', url: 'Patient' }, resource: { resourceType: 'Patient' } }] }),
  fc.constant({ resourceType: 'Bundle', type: 'batch', entry: [{ request: { method: 'GET', url: 'Patient/%E0' } }, { request: { method: 'DELETE', url: 'Nope/1' } }, {}] }),
  fc.jsonValue(),
);
const body = fc.oneof(
  resourceLike.map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', '{', '[', 'null', '{"resourceType":"Patient"', '\u0000', 'a=b&c', '{"a":' + '['.repeat(300)),
);
const header = fc.record({
  accept: fc.constantFrom('application/fhir+json', 'application/fhir+xml', '*/*', 'text/html', 'application/json;q=0'),
  'if-match': fc.constantFrom('W/"1"', 'W/"2"', '"x"', '*', '', 'W/"99999999999999999999999"'),
  'if-none-match': fc.constantFrom('W/"2"', '*', 'garbage'),
  'if-modified-since': fc.constantFrom('Tue, 01 Jan 2030 00:00:00 GMT', 'yesterday', ''),
  'if-none-exist': fc.constantFrom('identifier=a|b', 'nonsense=1', '', '_id=p1', 'Patient?name=x&name:exact=y'),
  prefer: fc.constantFrom('return=minimal', 'return=OperationOutcome', 'handling=strict', 'return=bogus'),
}, { requiredKeys: [] });
const request = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'),
  url: fc.tuple(path, query).map(([p, q]) => p + q),
  contentType,
  headers: header,
  body: fc.option(body, { nil: undefined }),
});

t.test('property: no request yields a 5xx; every error body is an OperationOutcome', async (t) => {
  const { app } = await seededApp(t);
  await fc.assert(
    fc.asyncProperty(request, async (r) => {
      const headers: Record<string, string> = { ...r.headers };
      if (r.body !== undefined && r.contentType) headers['content-type'] = r.contentType;
      const res = await app.inject({ method: r.method as InjectOptions['method'], url: r.url, headers, payload: r.body });
      if (res.statusCode >= 500) throw new Error(`${r.method} ${r.url} -> ${res.statusCode}: ${res.body.slice(0, 300)}`);
      if (res.statusCode >= 400 && r.method !== 'HEAD') {
        if (res.headers['content-type'] !== FHIR_JSON_UTF8) throw new Error(`${r.method} ${r.url} -> ${res.statusCode} as ${res.headers['content-type']}`);
        const parsed = JSON.parse(res.body) as { resourceType?: string };
        if (parsed.resourceType !== 'OperationOutcome') throw new Error(`${r.method} ${r.url} -> ${res.statusCode} without an OperationOutcome`);
      }
    }),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 400) },
  );
  t.pass('random requests: no 5xx, every error an OperationOutcome (FUZZ_RUNS=n for a longer run)');
  // The server still works afterwards.
  t.equal((await app.inject({ url: '/fhir/metadata' })).statusCode, 200);
});
