// batch and transaction Bundles (FHIR R4 3.1.0.11), through inject and through fhir-kit-client on a socket.
import t, { type Test } from 'tap';
import { Client } from 'fhir-kit-client';
import type { Bundle, BundleEntry, OperationOutcome, Resource } from '@medplum/fhirtypes';
import { buildApp } from '../../../server/app.ts';

const FHIR = { 'content-type': 'application/fhir+json' };
/** A reply body: a response Bundle or an OperationOutcome. */
type Reply = Omit<Bundle, 'resourceType'> & Omit<OperationOutcome, 'resourceType'> & { resourceType: string };

function setup(t: Test) {
  const { app } = buildApp();
  t.teardown(() => app.close());
  const post = async (payload: unknown, headers: Record<string, string> = {}) => {
    const res = await app.inject({ method: 'POST', url: '/fhir', headers: { ...FHIR, ...headers }, payload: payload as object });
    return { status: res.statusCode, body: res.json() as Reply };
  };
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url: `/fhir/${url}` });
    return { status: res.statusCode, body: res.json() };
  };
  const put = async (resource: Resource & { id: string }) => {
    const res = await app.inject({ method: 'PUT', url: `/fhir/${resource.resourceType}/${resource.id}`, headers: FHIR, payload: resource });
    if (res.statusCode >= 300) throw new Error(res.body);
    return res.json();
  };
  const historyTotal = async () => (await get('_history?_count=1')).body.total as number;
  return { app, post, get, put, historyTotal };
}

const patient = (id?: string, extra: Record<string, unknown> = {}): Resource =>
  ({ resourceType: 'Patient', ...(id ? { id } : {}), name: [{ family: 'Lovelace', given: ['Ada'] }], ...extra }) as Resource;
const observation = (subject: string, extra: Record<string, unknown> = {}): Resource =>
  ({ resourceType: 'Observation', status: 'final', code: { text: 'potassium' }, subject: { reference: subject }, ...extra }) as Resource;
const bundle = (type: string, entry: BundleEntry[]) => ({ resourceType: 'Bundle', type, entry });
const idFromLocation = (location: string | undefined) => /\/([A-Za-z]+)\/([^/]+)\/_history\/\d+$/.exec(location ?? '')!.slice(1, 3).join('/');

t.test('non-Bundle bodies and Bundles of another type are 400 with an OperationOutcome', async (t) => {
  const { post, app } = setup(t);
  for (const [name, payload] of [
    ['a Patient', patient()],
    ['a collection Bundle', bundle('collection', [])],
    ['a searchset Bundle', bundle('searchset', [])],
    ['a Bundle with an invalid envelope', bundle('batch', [{ request: { method: 'FETCH', url: 'Patient' } } as never])],
    ['a JSON array', [1, 2]],
  ] as const) {
    const res = await post(payload);
    t.equal(res.status, 400, name);
    t.equal(res.body.resourceType, 'OperationOutcome', name);
  }
  const empty = await app.inject({ method: 'POST', url: '/fhir', headers: FHIR });
  t.equal(empty.statusCode, 400, 'no body');
  t.equal(empty.json().resourceType, 'OperationOutcome');
});

t.test('transaction resolves urn:uuid fullUrls across entries, forward references included', async (t) => {
  const { post, get } = setup(t);
  // The Observation comes first and points forward at the Patient; the Encounter's PUT points back at both.
  const res = await post(bundle('transaction', [
    { fullUrl: 'urn:uuid:0c5c4a6e-0000-4000-8000-000000000001', resource: observation('urn:uuid:0c5c4a6e-0000-4000-8000-000000000002', { hasMember: [{ reference: 'urn:oid:1.2.3.4' }] }), request: { method: 'POST', url: 'Observation' } },
    { fullUrl: 'urn:uuid:0c5c4a6e-0000-4000-8000-000000000002', resource: patient(), request: { method: 'POST', url: 'Patient' } },
    { fullUrl: 'urn:oid:1.2.3.4', resource: observation('urn:uuid:0c5c4a6e-0000-4000-8000-000000000002', { code: { text: 'sodium' } }), request: { method: 'POST', url: 'Observation' } },
    {
      fullUrl: 'urn:uuid:0c5c4a6e-0000-4000-8000-000000000003',
      resource: { resourceType: 'Encounter', id: 'enc-1', status: 'finished', class: { code: 'AMB' }, subject: { reference: 'urn:uuid:0c5c4a6e-0000-4000-8000-000000000002' } } as Resource,
      request: { method: 'PUT', url: 'Encounter/enc-1' },
    },
  ]));
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.equal(res.body.type, 'transaction-response');
  t.ok(res.body.timestamp, 'timestamp');
  const entries = res.body.entry!;
  t.same(entries.map((e) => e.response?.status), ['201 Created', '201 Created', '201 Created', '201 Created']);
  const [obs, pat, sodium, enc] = entries.map((e) => idFromLocation(e.response?.location));
  t.match(pat, /^Patient\/.+/);
  t.equal(enc, 'Encounter/enc-1');
  t.equal((await get(obs)).body.subject.reference, pat, 'forward reference rewritten');
  t.equal((await get(obs)).body.hasMember[0].reference, sodium, 'urn:oid reference rewritten');
  t.equal((await get(enc)).body.subject.reference, pat, 'PUT entry reference rewritten');
  for (const e of entries) {
    t.match(e.response?.etag, /^W\/"1"$/);
    t.ok(e.response?.lastModified && !Number.isNaN(Date.parse(e.response.lastModified)), 'lastModified is an instant');
    t.equal(e.resource?.meta?.versionId, '1', 'representation returned by default');
  }
});

t.test('a urn:uuid that names no entry fails the transaction', async (t) => {
  const { post, historyTotal } = setup(t);
  const before = await historyTotal();
  const res = await post(bundle('transaction', [
    { resource: patient(), request: { method: 'POST', url: 'Patient' } },
    { resource: observation('urn:uuid:7d1c0c2a-0000-4000-8000-00000000dead'), request: { method: 'POST', url: 'Observation' } },
  ]));
  t.equal(res.status, 400);
  t.match(res.body.issue?.[0].diagnostics, /Bundle\.entry\[1\]/);
  t.equal(await historyTotal(), before, 'nothing written');
});

t.test('transaction processes DELETE, POST, PUT, then GET, and answers in request order', async (t) => {
  const { post, put, get, app } = setup(t);
  await put(patient('a') as Resource & { id: string });
  await put(patient('c') as Resource & { id: string });
  const res = await post(bundle('transaction', [
    { request: { method: 'GET', url: 'Patient/a' } },
    { resource: patient('a', { gender: 'female' }), request: { method: 'PUT', url: 'Patient/a' } },
    { resource: patient(undefined, { gender: 'male' }), request: { method: 'POST', url: 'Patient' } },
    { request: { method: 'DELETE', url: 'Patient/c' } },
  ]));
  t.equal(res.status, 200, JSON.stringify(res.body));
  const entries = res.body.entry!;
  t.same(entries.map((e) => e.response?.status), ['200 OK', '200 OK', '201 Created', '200 OK']);
  // Listed first but run last: the read sees the update.
  t.equal(entries[0].resource?.meta?.versionId, '2');
  t.equal((entries[0].resource as { gender?: string }).gender, 'female');
  t.equal(entries[0].response?.etag, 'W/"2"');
  t.equal(entries[1].response?.etag, 'W/"2"');
  t.equal(entries[3].response?.outcome?.resourceType, 'OperationOutcome', 'delete reports an outcome');
  t.equal((await get('Patient/c')).status, 410);
  // System history is newest first: the PUT, then the POST, then the DELETE (request order would be the reverse).
  const history = (await app.inject({ method: 'GET', url: '/fhir/_history?_count=3' })).json() as Bundle;
  const created = idFromLocation(entries[2].response?.location);
  t.same(history.entry!.map((e) => [e.request?.method, e.fullUrl?.replace(/^.*\/fhir\//, '')]), [
    ['PUT', 'Patient/a'],
    ['POST', created],
    ['DELETE', 'Patient/c'],
  ]);
});

t.test('a transaction with one invalid entry changes nothing', async (t) => {
  const { post, put, get, historyTotal } = setup(t);
  await put(patient('a') as Resource & { id: string });
  await put(patient('c') as Resource & { id: string });
  const before = await historyTotal();
  const res = await post(bundle('transaction', [
    { resource: patient('a', { gender: 'female' }), request: { method: 'PUT', url: 'Patient/a' } },
    { resource: patient(), request: { method: 'POST', url: 'Patient' } },
    { resource: observation('Patient/a', { status: 'bogus' }), request: { method: 'POST', url: 'Observation' } },
    { request: { method: 'DELETE', url: 'Patient/c' } },
  ]));
  t.equal(res.status, 400);
  t.equal(res.body.resourceType, 'OperationOutcome');
  const bad = res.body.issue!.find((i) => /status/.test(i.diagnostics ?? ''));
  t.ok(bad, JSON.stringify(res.body));
  t.match(bad!.diagnostics, /^Bundle\.entry\[2\]/, 'names the failing entry');
  t.same(bad!.expression, ['Bundle.entry[2].resource.status']);
  t.equal(await historyTotal(), before, 'no version written');
  const a = await get('Patient/a');
  t.equal(a.body.meta.versionId, '1', 'update rolled back');
  t.notOk(a.body.gender);
  t.equal((await get('Patient/c')).status, 200, 'delete rolled back');
});

t.test('a dangling reference fails the transaction after every entry ran (422), rolling back', async (t) => {
  const { post, historyTotal } = setup(t);
  const res = await post(bundle('transaction', [
    { resource: patient(), request: { method: 'POST', url: 'Patient' } },
    { resource: observation('Patient/does-not-exist'), request: { method: 'POST', url: 'Observation' } },
  ]));
  t.equal(res.status, 422);
  t.match(res.body.issue?.[0].diagnostics, /Bundle\.entry\[1\].*does-not-exist/);
  t.equal(await historyTotal(), 0);
});

t.test('If-Match per entry: a stale version fails the whole transaction with 412', async (t) => {
  const { post, put, get, historyTotal } = setup(t);
  await put(patient('a') as Resource & { id: string });
  await put(patient('b') as Resource & { id: string });
  const before = await historyTotal();
  const stale = await post(bundle('transaction', [
    { resource: patient('a', { gender: 'other' }), request: { method: 'PUT', url: 'Patient/a', ifMatch: 'W/"1"' } },
    { resource: patient('b', { gender: 'other' }), request: { method: 'PUT', url: 'Patient/b', ifMatch: 'W/"5"' } },
  ]));
  t.equal(stale.status, 412);
  t.match(stale.body.issue?.[0].diagnostics, /Bundle\.entry\[1\]/);
  t.equal(await historyTotal(), before);
  t.equal((await get('Patient/a')).body.meta.versionId, '1');

  const fresh = await post(bundle('transaction', [
    { resource: patient('a', { gender: 'other' }), request: { method: 'PUT', url: 'Patient/a', ifMatch: 'W/"1"' } },
    { request: { method: 'DELETE', url: 'Patient/b', ifMatch: 'W/"1"' } },
  ]));
  t.equal(fresh.status, 200);
  t.same(fresh.body.entry!.map((e) => e.response?.status), ['200 OK', '200 OK']);
  t.equal((await get('Patient/b')).status, 410);
});

t.test('GET entries return the read; If-None-Match gives 304', async (t) => {
  const { post, put } = setup(t);
  await put(patient('a') as Resource & { id: string });
  const res = await post(bundle('batch', [
    { request: { method: 'GET', url: 'Patient/a' } },
    { request: { method: 'GET', url: 'Patient/a', ifNoneMatch: 'W/"1"' } },
    { request: { method: 'GET', url: 'Patient/a/_history/1' } },
    { request: { method: 'HEAD', url: 'Patient/a' } },
  ]));
  t.equal(res.status, 200);
  const [read, notModified, vread, head] = res.body.entry!;
  t.equal(read.response?.status, '200 OK');
  t.equal(read.resource?.id, 'a');
  t.equal(read.response?.etag, 'W/"1"');
  t.match(read.fullUrl, /\/fhir\/Patient\/a$/);
  t.equal(notModified.response?.status, '304 Not Modified');
  t.notOk(notModified.resource);
  t.equal(vread.resource?.meta?.versionId, '1');
  t.equal(head.response?.status, '200 OK');
  t.notOk(head.resource, 'HEAD has no body');
});

t.test('batch: a bad entry fails alone with its own status and outcome', async (t) => {
  const { post, put, get } = setup(t);
  await put(patient('a') as Resource & { id: string });
  await put(patient('c') as Resource & { id: string });
  const res = await post(bundle('batch', [
    { resource: patient(), request: { method: 'POST', url: 'Patient' } },
    { resource: observation('Patient/a', { status: 'bogus' }), request: { method: 'POST', url: 'Observation' } },
    { request: { method: 'GET', url: 'Patient/missing' } },
    { resource: patient('a', { gender: 'male' }), request: { method: 'PUT', url: 'Patient/a', ifMatch: 'W/"9"' } },
    { fullUrl: 'urn:uuid:1b0c0000-0000-4000-8000-000000000001', resource: patient(), request: { method: 'POST', url: 'Patient' } },
    { resource: observation('urn:uuid:1b0c0000-0000-4000-8000-000000000001'), request: { method: 'POST', url: 'Observation' } },
    { request: { method: 'DELETE', url: 'Patient/c' } },
    { resource: observation('Patient/nobody'), request: { method: 'POST', url: 'Observation' } },
    { request: { method: 'POST', url: 'Patient' } } as BundleEntry,
    { resource: patient(), request: { method: 'POST', url: 'http://elsewhere.example/fhir/Patient' } },
  ]));
  t.equal(res.status, 200);
  t.equal(res.body.type, 'batch-response');
  const entries = res.body.entry!;
  t.same(entries.map((e) => e.response?.status), [
    '201 Created', '400 Bad Request', '404 Not Found', '412 Precondition Failed', '201 Created', '400 Bad Request',
    '200 OK', '422 Unprocessable Entity', '400 Bad Request', '400 Bad Request',
  ]);
  for (const i of [1, 2, 3, 5, 7, 8, 9]) {
    t.equal(entries[i].response?.outcome?.resourceType, 'OperationOutcome', `entry ${i} has an outcome`);
    t.notOk(entries[i].resource, `entry ${i} has no resource`);
  }
  t.match(entries[1].response?.outcome?.issue?.[0].expression, ['Observation.status']);
  t.match(entries[5].response?.outcome?.issue?.[0].diagnostics, /batch/);
  t.equal((await get(idFromLocation(entries[0].response?.location))).status, 200, 'the good create happened');
  t.equal((await get('Patient/a')).body.meta.versionId, '1', 'stale PUT did not happen');
  t.equal((await get('Patient/c')).status, 410, 'the delete happened');
});

t.test('Prefer return=minimal and return=OperationOutcome shape the response entries', async (t) => {
  const { post } = setup(t);
  const minimal = await post(bundle('transaction', [{ resource: patient(), request: { method: 'POST', url: 'Patient' } }]), { prefer: 'return=minimal' });
  t.equal(minimal.status, 200);
  t.notOk(minimal.body.entry![0].resource);
  t.match(minimal.body.entry![0].response?.location, /\/fhir\/Patient\/[^/]+\/_history\/1$/);
  t.ok(minimal.body.entry![0].response?.lastModified);
  const oo = await post(bundle('batch', [{ resource: patient(), request: { method: 'POST', url: 'Patient' } }]), { prefer: 'return=OperationOutcome' });
  t.notOk(oo.body.entry![0].resource);
  t.equal(oo.body.entry![0].response?.outcome?.resourceType, 'OperationOutcome');
});

t.test('PATCH entries carry a JSON Patch as a base64 Binary', async (t) => {
  const { post, put, get } = setup(t);
  await put(patient('a') as Resource & { id: string });
  const ops = [{ op: 'replace', path: '/name/0/family', value: 'Byron' }, { op: 'add', path: '/gender', value: 'female' }];
  const res = await post(bundle('transaction', [{
    resource: { resourceType: 'Binary', contentType: 'application/json-patch+json', data: Buffer.from(JSON.stringify(ops)).toString('base64') } as Resource,
    request: { method: 'PATCH', url: 'Patient/a' },
  }]));
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.equal(res.body.entry![0].response?.etag, 'W/"2"');
  const a = (await get('Patient/a')).body;
  t.equal(a.name[0].family, 'Byron');
  t.equal(a.gender, 'female');
});

t.test('a POSTed Bundle resource is stored, not executed; urls may be absolute under the base', async (t) => {
  const { post, get, historyTotal } = setup(t);
  const inner = bundle('transaction', [
    { fullUrl: 'urn:uuid:2c000000-0000-4000-8000-000000000001', resource: patient(), request: { method: 'POST', url: 'Patient' } },
    { resource: observation('urn:uuid:2c000000-0000-4000-8000-000000000001'), request: { method: 'POST', url: 'Observation' } },
  ]);
  const res = await post(bundle('transaction', [{ resource: inner as Resource, request: { method: 'POST', url: 'http://localhost:80/fhir/Bundle' } }]));
  t.equal(res.status, 200, JSON.stringify(res.body));
  const stored = (await get(idFromLocation(res.body.entry![0].response?.location))).body as Bundle;
  t.equal(stored.type, 'transaction');
  t.equal((stored.entry![1].resource as { subject: { reference: string } }).subject.reference, 'urn:uuid:2c000000-0000-4000-8000-000000000001', 'inner references untouched');
  t.equal(await historyTotal(), 1, 'only the Bundle was written');
});

t.test('entries that cannot be sent fail the transaction with 400', async (t) => {
  const { post } = setup(t);
  const cases: [string, BundleEntry[]][] = [
    ['entry without request', [{ resource: patient() }]],
    ['nested batch POSTed to the base', [{ resource: bundle('batch', []) as Resource, request: { method: 'POST', url: '/' } }]],
    ['foreign absolute url', [{ resource: patient(), request: { method: 'POST', url: 'http://elsewhere.example/fhir/Patient' } }]],
    ['two entries change one resource', [
      { resource: patient('x'), request: { method: 'PUT', url: 'Patient/x' } },
      { request: { method: 'DELETE', url: 'Patient/x' } },
    ]],
    ['duplicate fullUrl', [
      { fullUrl: 'urn:uuid:3d000000-0000-4000-8000-000000000001', resource: patient(), request: { method: 'POST', url: 'Patient' } },
      { fullUrl: 'urn:uuid:3d000000-0000-4000-8000-000000000001', resource: patient(), request: { method: 'POST', url: 'Patient' } },
    ]],
    ['malformed percent-encoding', [{ request: { method: 'GET', url: 'Patient/%E0%A4%A' } }]],
  ];
  for (const [name, entries] of cases) {
    const res = await post(bundle('transaction', entries));
    t.equal(res.status, 400, `${name}: ${JSON.stringify(res.body)}`);
    t.equal(res.body.resourceType, 'OperationOutcome', name);
  }
});

// Conditional paths go through the search engine (req.context.search.match).
t.test('ifNoneExist: a match is reused and urn references point at it', async (t) => {
  const { post, put, get, historyTotal } = setup(t);
  await put(patient('known', { identifier: [{ system: 'urn:mrn', value: '123' }] }) as Resource & { id: string });
  const before = await historyTotal();
  const res = await post(bundle('transaction', [
    { resource: observation('urn:uuid:4e000000-0000-4000-8000-000000000001'), request: { method: 'POST', url: 'Observation' } },
    {
      fullUrl: 'urn:uuid:4e000000-0000-4000-8000-000000000001',
      resource: patient(undefined, { identifier: [{ system: 'urn:mrn', value: '123' }] }),
      request: { method: 'POST', url: 'Patient', ifNoneExist: 'identifier=urn:mrn|123' },
    },
  ]));
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.same(res.body.entry!.map((e) => e.response?.status), ['201 Created', '200 OK']);
  t.equal(idFromLocation(res.body.entry![1].response?.location), 'Patient/known');
  t.equal((await get(idFromLocation(res.body.entry![0].response?.location))).body.subject.reference, 'Patient/known');
  t.equal(await historyTotal(), before + 1, 'only the Observation was written');
});

t.test('ifNoneExist runs after the DELETEs of the same transaction', async (t) => {
  const { post, put } = setup(t);
  await put(patient('old', { identifier: [{ system: 'urn:mrn', value: '9' }] }) as Resource & { id: string });
  const res = await post(bundle('transaction', [
    { resource: patient(undefined, { identifier: [{ system: 'urn:mrn', value: '9' }] }), request: { method: 'POST', url: 'Patient', ifNoneExist: 'identifier=urn:mrn|9' } },
    { request: { method: 'DELETE', url: 'Patient/old' } },
  ]));
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.same(res.body.entry!.map((e) => e.response?.status), ['201 Created', '200 OK']);
});

t.test('conditional references resolve to exactly one match', async (t) => {
  const { post, put, get, historyTotal } = setup(t);
  await put(patient('p1', { identifier: [{ system: 'urn:mrn', value: 'one' }] }) as Resource & { id: string });
  await put(patient('p2', { identifier: [{ system: 'urn:mrn', value: 'two' }], gender: 'male' }) as Resource & { id: string });
  await put(patient('p3', { identifier: [{ system: 'urn:mrn', value: 'three' }], gender: 'male' }) as Resource & { id: string });
  const ok = await post(bundle('transaction', [
    { resource: observation('Patient?identifier=urn:mrn|one'), request: { method: 'POST', url: 'Observation' } },
  ]));
  t.equal(ok.status, 200, JSON.stringify(ok.body));
  t.equal((await get(idFromLocation(ok.body.entry![0].response?.location))).body.subject.reference, 'Patient/p1');

  const before = await historyTotal();
  for (const [criteria, why] of [['identifier=urn:mrn|none', 'no match'], ['gender=male', 'two matches']]) {
    const res = await post(bundle('transaction', [
      { resource: patient(), request: { method: 'POST', url: 'Patient' } },
      { resource: observation(`Patient?${criteria}`), request: { method: 'POST', url: 'Observation' } },
    ]));
    t.equal(res.status, 412, why);
    t.match(res.body.issue?.[0].diagnostics, /Bundle\.entry\[1\]/, why);
  }
  t.equal(await historyTotal(), before, 'failed transactions wrote nothing');

  const batch = await post(bundle('batch', [
    { resource: observation('Patient?gender=male'), request: { method: 'POST', url: 'Observation' } },
    { resource: observation('Patient?identifier=urn:mrn|two'), request: { method: 'POST', url: 'Observation' } },
  ]));
  t.same(batch.body.entry!.map((e) => e.response?.status), ['412 Precondition Failed', '201 Created']);
});

t.test('conditional update in a transaction: its urn fullUrl resolves to the matched resource', async (t) => {
  const { post, put, get } = setup(t);
  await put(patient('m', { identifier: [{ system: 'urn:mrn', value: 'm1' }] }) as Resource & { id: string });
  const entries: BundleEntry[] = [
    { resource: observation('urn:uuid:6a000000-0000-4000-8000-000000000001'), request: { method: 'POST', url: 'Observation' } },
    {
      fullUrl: 'urn:uuid:6a000000-0000-4000-8000-000000000001',
      resource: patient(undefined, { identifier: [{ system: 'urn:mrn', value: 'm1' }], gender: 'female' }),
      request: { method: 'PUT', url: 'Patient?identifier=urn:mrn|m1' },
    },
  ];
  // A conditional DELETE matching nothing is 404, so the whole transaction fails and nothing is written.
  const failed = await post(bundle('transaction', [...entries, { request: { method: 'DELETE', url: 'Patient?identifier=urn:mrn|gone' } }]));
  t.equal(failed.status, 404);
  t.match(failed.body.issue?.[0].diagnostics, /Bundle\.entry\[2\]/);
  t.equal((await get('Patient/m')).body.meta.versionId, '1');

  const ok = await post(bundle('transaction', entries));
  t.equal(ok.status, 200, JSON.stringify(ok.body));
  t.same(ok.body.entry!.map((e) => e.response?.status), ['201 Created', '200 OK']);
  t.equal(idFromLocation(ok.body.entry![1].response?.location), 'Patient/m');
  t.equal((await get(idFromLocation(ok.body.entry![0].response?.location))).body.subject.reference, 'Patient/m');
  t.equal((await get('Patient/m')).body.gender, 'female');
});

t.test('through fhir-kit-client on a socket', async (t) => {
  const { app } = buildApp();
  t.teardown(() => app.close());
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const client = new Client({ baseUrl: `${address}/fhir` });

  const tx = (await client.transaction({
    body: bundle('transaction', [
      { resource: observation('urn:uuid:5f000000-0000-4000-8000-000000000001'), request: { method: 'POST', url: 'Observation' } },
      { fullUrl: 'urn:uuid:5f000000-0000-4000-8000-000000000001', resource: patient('kit') as Resource, request: { method: 'PUT', url: 'Patient/kit' } },
    ]) as never,
  })) as unknown as Bundle;
  t.equal(tx.type, 'transaction-response');
  t.same(tx.entry!.map((e) => e.response?.status), ['201 Created', '201 Created']);
  const obsId = idFromLocation(tx.entry![0].response?.location).split('/')[1];
  const obs = (await client.read({ resourceType: 'Observation', id: obsId })) as unknown as { subject: { reference: string } };
  t.equal(obs.subject.reference, 'Patient/kit');

  const before = ((await client.history({})) as unknown as Bundle).total;
  const failure = await client.transaction({
    body: bundle('transaction', [
      { resource: patient('kit', { gender: 'female' }), request: { method: 'PUT', url: 'Patient/kit' } },
      { resource: observation('Patient/kit', { status: 'bogus' }), request: { method: 'POST', url: 'Observation' } },
    ]) as never,
  }).then(() => undefined, (err: { response?: { status: number; data: OperationOutcome } }) => err.response);
  t.equal(failure?.status, 400);
  t.equal(failure?.data.resourceType, 'OperationOutcome');
  t.equal(((await client.history({})) as unknown as Bundle).total, before, 'rolled back');
  t.notOk(((await client.read({ resourceType: 'Patient', id: 'kit' })) as unknown as { gender?: string }).gender);

  const batch = (await client.batch({
    body: bundle('batch', [
      { request: { method: 'GET', url: 'Patient/kit' } },
      { request: { method: 'GET', url: 'Patient/nope' } },
      { resource: patient(), request: { method: 'POST', url: 'Patient' } },
    ]) as never,
  })) as unknown as Bundle;
  t.equal(batch.type, 'batch-response');
  t.same(batch.entry!.map((e) => e.response?.status), ['200 OK', '404 Not Found', '201 Created']);
  t.equal(batch.entry![0].resource?.id, 'kit');
  t.equal(batch.entry![1].response?.outcome?.resourceType, 'OperationOutcome');

  const wrong = await client.transaction({ body: bundle('collection', []) as never })
    .then(() => undefined, (err: { response?: { status: number } }) => err.response?.status);
  t.equal(wrong, 400);
});
