// References must resolve and ids must follow the FHIR id grammar (issue 14, "Smaller defects"), through the real
// app: a malformed reference is a 400 and a reference to nothing a 422 (FHIR R4 3.1.0.4: the form is valid, a
// business rule fails), each an OperationOutcome whose expression names the Reference element; nothing is stored.
import t, { type Test } from 'tap';
import type { Bundle, OperationOutcome, Resource } from '@medplum/fhirtypes';
import { request } from 'node:http';
import { assertOutcome, injectApp, JSON_HEADERS, observationBody, PATCH_HEADERS, patientBody, startServer } from '../test-server.ts';
import { startGym } from '../gym/gym-harness.ts';

type App = ReturnType<typeof injectApp>['app'];
const UUID = 'urn:uuid:4a3b1c2d-0000-4000-8000-000000000001';

const send = (app: App, method: 'POST' | 'PUT' | 'PATCH', url: string, payload: unknown, headers = JSON_HEADERS) =>
  app.inject({ method, url, headers, payload: JSON.stringify(payload) });

async function withPatient(t: Test) {
  const { app } = injectApp(t);
  const put = await send(app, 'PUT', '/fhir/Patient/x', patientBody({ id: 'x' }));
  t.equal(put.statusCode, 201, 'Patient/x created');
  return app;
}

const count = async (app: App, type: string) => (await app.inject({ method: 'GET', url: `/fhir/${type}?_summary=count` })).json().total as number;
const expressions = (oo: OperationOutcome) => (oo.issue ?? []).flatMap((i) => i.expression ?? []);

t.test('malformed and unresolvable references are refused, naming the element', async (t) => {
  const app = await withPatient(t);
  const cases: [string, string, number, RegExp][] = [
    ['a conditional reference without criteria', 'Patient?', 400, /search criteria are missing/],
    ['a type without an id', 'Patient/', 400, /the id is missing after 'Patient\/'/],
    ['the id ..', 'Patient/..', 400, /'\.\.' is not a valid id/],
    ['an unknown type', 'Patientt/x', 400, /'Patientt' is not a resource type/],
    ['a relative path of another shape', 'Patient/x/y', 400, /expected Type\/id/],
    ['#id naming no contained resource', '#nope', 400, /names no contained resource/],
    ['urn:uuid: outside a transaction', UUID, 400, /only inside a transaction/],
    ['a conditional reference outside a transaction', 'Patient?identifier=x', 400, /conditional reference/],
    ['a version that does not exist', 'Patient/x/_history/999', 422, /version 999 of Patient\/x, which does not exist/],
    ['a patient that does not exist', 'Patient/nobody', 422, /Patient\/nobody, which does not exist/],
    ["this server's base with no resource", 'http://localhost:80/fhir/Patient', 400, /does not name a resource/],
    ["this server's base and a missing patient", 'http://localhost:80/fhir/Patient/nobody', 422, /does not exist/],
  ];
  for (const [what, reference, status, message] of cases) {
    const res = await send(app, 'POST', '/fhir/Observation', observationBody('x', { subject: { reference } }));
    const oo = assertOutcome(t, res, status);
    t.match(oo.issue?.[0]?.diagnostics, message, what);
    t.same(expressions(oo), ['Observation.subject.reference'], `${what}: the expression names the element`);
  }
  t.equal(await count(app, 'Observation'), 0, 'nothing was stored');
});

t.test('references anywhere in the resource are found from the element types, not by path', async (t) => {
  const app = await withPatient(t);
  const cases: [string, Resource, string, number][] = [
    ['an extension valueReference', observationBody('x', { extension: [{ url: 'http://example.org/x', valueReference: { reference: 'Practitioner/none' } }] }), 'Observation.extension[0].valueReference.reference', 422],
    ['an identifier assigner', observationBody('x', { identifier: [{ value: '1', assigner: { reference: 'Organization/' } }] }), 'Observation.identifier[0].assigner.reference', 400],
    ['a backbone element', observationBody('x', { referenceRange: [{ low: { value: 1 } }], hasMember: [{ reference: '#gone' }] }), 'Observation.hasMember[0].reference', 400],
    ['a contained resource', observationBody('x', { contained: [{ resourceType: 'Specimen', id: 's', subject: { reference: 'Patient/nobody' } }], specimen: { reference: '#s' } }), 'Observation.contained[0].subject.reference', 422],
  ];
  for (const [what, body, expression, status] of cases) {
    const oo = assertOutcome(t, await send(app, 'POST', '/fhir/Observation', body), status);
    t.same(expressions(oo), [expression], what);
  }
  // Reference.type must agree with the reference it types.
  const typed = assertOutcome(t, await send(app, 'POST', '/fhir/Observation', observationBody('x', { subject: { reference: 'Patient/x', type: 'Group' } })), 400);
  t.match(typed.issue?.[0]?.diagnostics, /names a Patient but its type says Group/);
  // DetectedIssue.reference is a uri, not a Reference: any URI is fine there.
  const detected = await send(app, 'POST', '/fhir/DetectedIssue', { resourceType: 'DetectedIssue', status: 'final', patient: { reference: 'Patient/x' }, reference: 'http://example.org/guideline.pdf' });
  t.equal(detected.statusCode, 201, 'a uri element named reference is not a Reference');
  t.equal(await count(app, 'Observation'), 0, 'no Observation was stored');
});

t.test('references of every valid form are stored', async (t) => {
  const app = await withPatient(t);
  const forms: [string, Record<string, unknown>][] = [
    ['Type/id', { subject: { reference: 'Patient/x' } }],
    ['Type/id/_history/vid', { subject: { reference: 'Patient/x/_history/1' } }],
    ["this server's base + Type/id", { subject: { reference: 'http://localhost:80/fhir/Patient/x' } }],
    ['another server', { subject: { reference: 'https://other.example.org/fhir/Patient/42' } }],
    ['#id of a contained resource', { contained: [{ resourceType: 'Patient', id: 'p' }], subject: { reference: '#p' } }],
    ['a contained resource pointing back at its container (#)', { contained: [{ resourceType: 'Provenance', id: 'prov', target: [{ reference: '#' }], recorded: '2020-01-01T00:00:00Z', agent: [{ who: { display: 'x' } }] }] }],
    ['two contained resources referencing each other', { contained: [{ resourceType: 'Patient', id: 'p' }, { resourceType: 'Specimen', id: 's', subject: { reference: '#p' } }], subject: { reference: '#p' }, specimen: { reference: '#s' } }],
    ['a logical reference (identifier only)', { subject: { identifier: { system: 'http://example.org/mrn', value: '123' } } }],
    ['a display-only reference', { subject: { display: 'Peter Chalmers' } }],
  ];
  for (const [what, extra] of forms) {
    const res = await send(app, 'POST', '/fhir/Observation', observationBody('x', extra));
    t.equal(res.statusCode, 201, what, { body: res.body.slice(0, 400) });
  }
  // A Bundle stored as a document resolves its urn:uuid references among its own entries, not on this server.
  const document = await send(app, 'POST', '/fhir/Bundle', {
    resourceType: 'Bundle', type: 'collection',
    entry: [
      { fullUrl: UUID, resource: { resourceType: 'Patient' } },
      { fullUrl: 'urn:uuid:4a3b1c2d-0000-4000-8000-000000000002', resource: observationBody('x', { subject: { reference: UUID } }) },
    ],
  });
  t.equal(document.statusCode, 201, 'urn:uuid references inside a stored Bundle are left to the Bundle', { body: document.body.slice(0, 400) });
});

t.test('update and patch check references too; the stored version is unchanged', async (t) => {
  const app = await withPatient(t);
  const created = await send(app, 'PUT', '/fhir/Observation/o', observationBody('x', { id: 'o' }));
  t.equal(created.statusCode, 201);
  assertOutcome(t, await send(app, 'PUT', '/fhir/Observation/o', observationBody('nobody', { id: 'o' })), 422);
  assertOutcome(t, await send(app, 'PUT', '/fhir/Observation/o', observationBody('x', { id: 'o', subject: { reference: '#nope' } })), 400);
  const patched = assertOutcome(t, await send(app, 'PATCH', '/fhir/Observation/o', [{ op: 'replace', path: '/subject/reference', value: 'Patient/' }], PATCH_HEADERS), 400);
  t.same(expressions(patched), ['Observation.subject.reference']);
  assertOutcome(t, await send(app, 'PATCH', '/fhir/Observation/o', [{ op: 'replace', path: '/subject/reference', value: 'Patient/x/_history/7' }], PATCH_HEADERS), 422);
  const stored = (await app.inject({ method: 'GET', url: '/fhir/Observation/o' })).json();
  t.equal(stored.meta.versionId, '1', 'no new version');
  t.equal(stored.subject.reference, 'Patient/x');
});

t.test('transactions: urn:uuid and conditional references resolve, dangling ones fail the whole Bundle', async (t) => {
  const app = await withPatient(t);
  await send(app, 'PUT', '/fhir/Patient/y', patientBody({ id: 'y', identifier: [{ system: 'http://example.org/mrn', value: 'MRN-Y' }] }));
  const ok = await send(app, 'POST', '/fhir', {
    resourceType: 'Bundle', type: 'transaction',
    entry: [
      { fullUrl: 'urn:uuid:4a3b1c2d-0000-4000-8000-000000000003', resource: observationBody('x', { subject: { reference: UUID } }), request: { method: 'POST', url: 'Observation' } },
      { fullUrl: UUID, resource: patientBody(), request: { method: 'POST', url: 'Patient' } },
      { resource: observationBody('x', { subject: { reference: 'Patient?identifier=http://example.org/mrn|MRN-Y' } }), request: { method: 'POST', url: 'Observation' } },
    ],
  });
  t.equal(ok.statusCode, 200, 'a forward urn:uuid reference and a conditional reference resolve', { body: ok.body.slice(0, 600) });
  const entries = (ok.json() as Bundle).entry ?? [];
  const stored = (i: number) => entries[i]?.resource as { id?: string; subject?: { reference?: string } } | undefined;
  t.equal(stored(0)?.subject?.reference, `Patient/${stored(1)?.id}`, 'urn:uuid rewritten to the new Patient');
  t.equal(stored(2)?.subject?.reference, 'Patient/y', 'conditional reference rewritten to its match');

  const before = await count(app, 'Observation');
  const bad: [string, string, number][] = [
    ['a urn:uuid naming no entry', 'urn:uuid:4a3b1c2d-0000-4000-8000-0000000000ff', 400],
    ['a reference to a missing Patient', 'Patient/nobody', 422],
    ['Patient?', 'Patient?', 400],
    ['#nope', '#nope', 400],
  ];
  for (const [what, reference, status] of bad) {
    const res = await send(app, 'POST', '/fhir', {
      resourceType: 'Bundle', type: 'transaction',
      entry: [
        { resource: patientBody(), request: { method: 'POST', url: 'Patient' } },
        { resource: observationBody('x', { subject: { reference } }), request: { method: 'POST', url: 'Observation' } },
      ],
    });
    const oo = assertOutcome(t, res, status);
    t.match(oo.issue?.[0]?.diagnostics, /Bundle\.entry\[1\]/, `${what}: the entry is named`);
  }
  t.equal(await count(app, 'Observation'), before, 'no failed transaction stored anything');
});

t.test('in a gym session, references resolve against the session and the base layer', async (t) => {
  const gym = await startGym(t);
  const session = await gym.createSession();
  const base = new URL(session.fhirBaseUrl).pathname;
  const onBase = await gym.json('POST', `${base}/Observation`, observationBody('p1'));
  t.equal(onBase.status, 201, 'Patient/p1 of the base layer resolves');
  const version = await gym.json('POST', `${base}/Observation`, observationBody('p1', { subject: { reference: 'Patient/p1/_history/1' } }));
  t.equal(version.status, 201, 'a base-layer version resolves');
  t.equal((await gym.json('DELETE', `${base}/Patient/p2`)).status, 200);
  const deleted = await gym.json('POST', `${base}/Observation`, observationBody('p2'));
  t.equal(deleted.status, 422, 'a base patient deleted in this session no longer resolves here');
  t.equal((await gym.json('POST', '/fhir/Observation', observationBody('p2'))).status, 201, 'but still does in the default session');
  const created = await gym.json('POST', `${base}/Patient`, patientBody());
  t.equal(created.status, 201);
  const other = await gym.createSession();
  const elsewhere = await gym.json('POST', `${new URL(other.fhirBaseUrl).pathname}/Observation`, observationBody(created.body.id));
  t.equal(elsewhere.status, 422, "another session's patient does not resolve");
});

// Over a real socket: inject() resolves dot segments (and %2E) the way a browser would, before the server sees them.
t.test('ids follow the FHIR id grammar; . and .. are refused on every interaction', async (t) => {
  const server = await startServer(t);
  const { port } = new URL(server.baseUrl);
  const raw = (method: string, path: string, body?: unknown, contentType = 'application/fhir+json') =>
    new Promise<{ statusCode: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method, path, headers: body === undefined ? {} : { 'content-type': contentType } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: text }));
      });
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  t.equal((await raw('PUT', '/fhir/Patient/x', patientBody({ id: 'x' }))).statusCode, 201);
  for (const id of ['.', '..', '%2E', '%2e%2E', 'a_b', 'x'.repeat(65)]) {
    const plain = decodeURIComponent(id);
    const cases: [string, string, unknown?, string?][] = [
      ['GET', `/fhir/Patient/${id}`],
      ['GET', `/fhir/Patient/${id}/_history/1`],
      ['DELETE', `/fhir/Patient/${id}`],
      ['PUT', `/fhir/Patient/${id}`, patientBody({ id: plain })],
      ['PATCH', `/fhir/Patient/${id}`, [{ op: 'replace', path: '/gender', value: 'other' }], 'application/json-patch+json'],
    ];
    for (const [method, path, body, contentType] of cases) {
      const res = await raw(method, path, body, contentType);
      t.match(assertOutcome(t, res, 400).issue?.[0]?.diagnostics, /is not a valid (resource )?id/, `${method} ${path.slice(0, 50)}`);
    }
  }
  for (const id of ['.', '..']) {
    const oo = assertOutcome(t, await raw('POST', '/fhir/Patient', patientBody({ id })), 400);
    t.same(expressions(oo), ['Patient.id'], `a body id ${id} is refused on create`);
    assertOutcome(t, await raw('PUT', '/fhir/Patient?identifier=none', patientBody({ id })), 400);
    const entry = await raw('POST', '/fhir', { resourceType: 'Bundle', type: 'transaction', entry: [{ resource: patientBody({ id }), request: { method: 'PUT', url: `Patient/${id}` } }] });
    t.match(assertOutcome(t, entry, 400).issue?.[0]?.diagnostics, /Bundle\.entry\[0\]/, `a transaction PUT Patient/${id} is refused`);
  }
  const all = JSON.parse((await raw('GET', '/fhir/Patient?_summary=count')).body);
  t.equal(all.total, 1, 'only Patient/x exists');
  t.equal((await raw('GET', '/fhir/Patient/x')).statusCode, 200, 'a valid id still reads');
});
