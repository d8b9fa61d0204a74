// Stored ViewDefinitions: created like any resource (validated by the SQL on FHIR checks), searchable by name, url,
// status and resource, listed in the CapabilityStatement, and run by reference ($run viewReference, GET
// ViewDefinition/[id]/$run, $sqlquery-run view parts) over the data of the base that stores them.
import t from 'tap';
import type { CapabilityStatement, OperationOutcome } from '@medplum/fhirtypes';
import { startServer, type TestServer } from '../test-server.ts';

const FHIR_JSON = { 'content-type': 'application/fhir+json' };
const view = {
  resourceType: 'ViewDefinition', name: 'patient_gender', url: 'http://example.org/views/patient_gender', status: 'active', resource: 'Patient',
  select: [{ column: [{ name: 'id', path: 'getResourceKey()' }, { name: 'gender', path: 'gender' }] }],
};

let h: TestServer;
let viewId: string;
const inject = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  h.app.inject({ method, url, ...(payload === undefined ? {} : { headers: FHIR_JSON, payload: JSON.stringify(payload) }) });
const run = (parameter: unknown[], base = '/fhir') => inject('POST', `${base}/ViewDefinition/$run`, { resourceType: 'Parameters', parameter });
const sortedRows = (body: string) => (JSON.parse(body) as { id: string; gender: string }[]).sort((a, b) => a.id.localeCompare(b.id));

t.before(async () => {
  h = await startServer(t);
  for (const [id, gender] of [['p1', 'female'], ['p2', 'male']]) t.equal((await inject('PUT', `/fhir/Patient/${id}`, { resourceType: 'Patient', id, gender })).statusCode, 201);
  // Created with a real client: POST [base]/ViewDefinition.
  const created = await h.client.create({ resourceType: 'ViewDefinition', body: view as never });
  t.equal(created.resourceType, 'ViewDefinition');
  viewId = created.id;
});

t.test('the stored view reads back as stored', async (t) => {
  const read = await h.client.read({ resourceType: 'ViewDefinition', id: viewId });
  t.equal(read.name, 'patient_gender');
  t.same(read.select, view.select);
  t.equal(read.meta.versionId, '1');
});

t.test('an invalid view is refused with a 400 OperationOutcome naming the element', async (t) => {
  const res = await inject('POST', '/fhir/ViewDefinition', { ...view, select: [{ column: [{ name: 'id', path: 'id.(' }] }] });
  t.equal(res.statusCode, 400);
  const oo = JSON.parse(res.body) as OperationOutcome;
  t.equal(oo.resourceType, 'OperationOutcome');
  t.ok(oo.issue.some((i) => i.expression?.includes('ViewDefinition.select[0].column[0]')), JSON.stringify(oo.issue));
  const noResource = await inject('POST', '/fhir/ViewDefinition', { resourceType: 'ViewDefinition', select: view.select });
  t.equal(noResource.statusCode, 400, 'resource is required');
});

t.test('$run by viewReference over a real socket: a relative reference, an absolute one, and the canonical url', async (t) => {
  const expected = [{ id: 'p1', gender: 'female' }, { id: 'p2', gender: 'male' }];
  for (const reference of [`ViewDefinition/${viewId}`, `${h.baseUrl}/ViewDefinition/${viewId}`, view.url]) {
    // Over the socket, so the absolute reference names this server's real base.
    const res = await fetch(`${h.baseUrl}/ViewDefinition/$run`, {
      method: 'POST', headers: FHIR_JSON, body: JSON.stringify({ resourceType: 'Parameters', parameter: [{ name: 'viewReference', valueReference: { reference } }] }),
    });
    t.equal(res.status, 200, reference);
    t.same(sortedRows(await res.text()), expected, reference);
  }
});

t.test('GET ViewDefinition/[id]/$run over a real socket, with parameters in the query string', async (t) => {
  const res = await fetch(`${h.baseUrl}/ViewDefinition/${viewId}/$run?_format=csv&patient=Patient/p2`);
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^text\/csv/);
  t.equal(await res.text(), 'id,gender\r\np2,male\r\n');
  const missing = await fetch(`${h.baseUrl}/ViewDefinition/nope/$run`);
  t.equal(missing.status, 404);
});

t.test('search by name, url, status and resource', async (t) => {
  const total = async (query: string) => JSON.parse((await inject('GET', `/fhir/ViewDefinition?${query}`)).body).total as number;
  t.equal(await total('name=patient_gender'), 1);
  t.equal(await total('name=patient'), 1, 'string search matches a prefix');
  t.equal(await total('name=observation'), 0);
  t.equal(await total(`url=${encodeURIComponent(view.url)}`), 1);
  t.equal(await total('url=http://example.org/views/other'), 0);
  t.equal(await total('status=active'), 1);
  t.equal(await total('status=draft'), 0);
  t.equal(await total('resource=Patient'), 1);
  t.equal(await total('resource=Observation'), 0);
});

t.test('$sqlquery-run takes a stored view by reference as a table', async (t) => {
  const res = await inject('POST', '/fhir/$sqlquery-run', { resourceType: 'Parameters', parameter: [
    { name: 'query', valueString: 'SELECT gender, count(*) AS n FROM patient_gender GROUP BY gender ORDER BY gender' },
    { name: 'view', valueReference: { reference: `ViewDefinition/${viewId}` } },
  ] });
  t.equal(res.statusCode, 200, res.body);
  t.same(JSON.parse(res.body), [{ gender: 'female', n: 1 }, { gender: 'male', n: 1 }]);
});

t.test('in a session: a view stored there runs over the session\'s data and is not visible outside it', async (t) => {
  const created = await inject('POST', '/gym/sessions', {});
  t.equal(created.statusCode, 201);
  const base = `/fhir/_session/${JSON.parse(created.body).id}`;
  t.equal((await inject('PUT', `${base}/Patient/p3`, { resourceType: 'Patient', id: 'p3', gender: 'other' })).statusCode, 201);
  const stored = await inject('POST', `${base}/ViewDefinition`, { ...view, name: 'session_view', url: 'http://example.org/views/session_view' });
  t.equal(stored.statusCode, 201);
  const id = JSON.parse(stored.body).id as string;
  const res = await inject('GET', `${base}/ViewDefinition/${id}/$run`);
  t.equal(res.statusCode, 200);
  t.same(sortedRows(res.body).map((r) => r.id), ['p3'], 'the session started empty: only its own write (the default base is another sandbox)');
  t.equal((await inject('GET', `/fhir/ViewDefinition/${id}/$run`)).statusCode, 404, 'not visible from the default base');
  t.equal((await run([{ name: 'viewReference', valueString: 'http://example.org/views/session_view' }])).statusCode, 404, 'nor by its url');
});

t.test('the CapabilityStatement lists ViewDefinition with its search parameters and $run', async (t) => {
  const statement = await h.client.capabilityStatement() as CapabilityStatement;
  const entry = statement.rest?.[0].resource?.find((r) => (r.type as string) === 'ViewDefinition');
  t.ok(entry, 'ViewDefinition is a resource type of the server');
  const params = entry?.searchParam?.map((p) => p.name) ?? [];
  for (const name of ['name', 'url', 'status', 'resource']) t.ok(params.includes(name), `search parameter ${name}`);
  t.ok(entry?.operation?.some((o) => o.name === 'run'), '$run');
  t.ok(entry?.interaction?.some((i) => i.code === 'create'), 'create');
});
