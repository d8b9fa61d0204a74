// $run over stored data streams: many keyset pages, rows exactly once across page boundaries where a session shadows
// base rows, chunked output on a real socket, and writes that succeed while a response is only partly produced.
import t from 'tap';
import type { Resource } from '@medplum/fhirtypes';
import { buildApp } from '../../../server/app.ts';
import { route } from '../../../server/router.ts';
import type { FhirRequest } from '../../../server/fhir-request.ts';
import { Repository } from '../../../resources/storage/repository.ts';
import { BASE_LAYER, makeSandbox } from '../../../resources/storage/sandbox.ts';
import { SCAN_PAGE_SIZE, STREAM_CHUNK_CHARS } from '../../../server/operations/view-run.ts';

const BASE_ROWS = 3000;
const id4 = (i: number) => `o${String(i).padStart(4, '0')}`;
const obs = (id: string, value: number) =>
  ({ resourceType: 'Observation', id, status: 'final', code: { text: 'k' }, subject: { reference: `Patient/p${value % 7}` }, valueQuantity: { value } }) as Resource & { id: string };

const { app, context, sessions } = buildApp();
t.teardown(() => app.close());
const base = new Repository(context.store, makeSandbox(BASE_LAYER));
context.store.transaction(() => {
  for (let i = 0; i < 7; i++) base.write({ resourceType: 'Patient', id: `p${i}` });
  for (let i = 0; i < BASE_ROWS; i++) base.write(obs(id4(i), i));
});

const FHIR_JSON = { 'content-type': 'application/fhir+json' };
const view = {
  resourceType: 'ViewDefinition', name: 'obs', resource: 'Observation',
  select: [{ column: [
    { name: 'id', path: 'getResourceKey()' }, { name: 'value', path: 'value.ofType(Quantity).value', type: 'decimal' },
    { name: 'patient', path: 'subject.reference' }, { name: 'status', path: 'status' }, { name: 'code', path: 'code.text' },
  ] }],
};
const runBody = (...extra: unknown[]) => JSON.stringify({ resourceType: 'Parameters', parameter: [{ name: 'viewResource', resource: view }, ...extra] });

// The session shadows base rows on both sides of the first two page boundaries (ids 499|500 and 999|1000).
const session = sessions.create({}, (id) => `http://localhost/fhir/_session/${id}`);
const sessionBase = `/fhir/_session/${session.meta.id}`;
t.before(async () => {
  t.equal(SCAN_PAGE_SIZE, 500, 'the fixture places shadowed rows at the page boundaries of 500');
  for (const [id, value] of [['o0499', 10499], ['o0500', 10500], ['o0499a', 20000], ['z0001', 20001]] as const) {
    const res = await app.inject({ method: 'PUT', url: `${sessionBase}/Observation/${id}`, headers: FHIR_JSON, payload: JSON.stringify(obs(id, value)) });
    t.ok(res.statusCode === 200 || res.statusCode === 201, `PUT ${id}`);
  }
  for (const id of ['o0999', 'o1000']) t.equal((await app.inject({ method: 'DELETE', url: `${sessionBase}/Observation/${id}` })).statusCode, 200, `DELETE ${id}`);
});

const sessionExpected = (): Map<string, number> => {
  const rows = new Map<string, number>();
  for (let i = 0; i < BASE_ROWS; i++) rows.set(id4(i), i);
  rows.set('o0499', 10499).set('o0500', 10500).set('o0499a', 20000).set('z0001', 20001);
  rows.delete('o0999');
  rows.delete('o1000');
  return rows;
};

t.test('over a real socket: chunked ndjson, every visible row exactly once with the session\'s versions', async (t) => {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const res = await fetch(`${address}${sessionBase}/ViewDefinition/$run`, { method: 'POST', headers: FHIR_JSON, body: runBody({ name: '_format', valueCode: 'ndjson' }) });
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^application\/x-ndjson/);
  t.equal(res.headers.get('content-length'), null, 'no content-length: the body was not built before sending');
  t.equal(res.headers.get('transfer-encoding'), 'chunked');
  const text = await res.text();
  t.ok(text.length > 2 * STREAM_CHUNK_CHARS, 'the output spans several stream chunks');
  const rows = text.trimEnd().split('\n').map((line) => JSON.parse(line) as { id: string; value: number });
  const expected = sessionExpected();
  t.equal(rows.length, expected.size, 'row count: base rows + session creates - session deletes');
  t.equal(new Set(rows.map((r) => r.id)).size, rows.length, 'no row twice');
  t.same(new Map(rows.map((r) => [r.id, r.value])), expected, 'session versions win; deleted base rows are absent');

  const plain = await fetch(`${address}/fhir/ViewDefinition/$run`, { method: 'POST', headers: FHIR_JSON, body: runBody() });
  const all = (await plain.json()) as { id: string; value: number }[];
  t.equal(all.length, BASE_ROWS, 'the default base (json array) sees the base rows only');
  t.equal(all.find((r) => r.id === 'o0499')?.value, 499, 'and the base version of a row the session changed');
});

t.test('csv over many pages: one header, then one line per row', async (t) => {
  const res = await app.inject({ method: 'POST', url: `${sessionBase}/ViewDefinition/$run`, headers: FHIR_JSON, payload: runBody({ name: '_format', valueCode: 'csv' }) });
  const lines = res.body.trimEnd().split('\r\n');
  t.equal(lines[0], 'id,value,patient,status,code');
  t.equal(lines.filter((l) => l === lines[0]).length, 1, 'the header is not repeated per page or chunk');
  t.equal(lines.length - 1, sessionExpected().size);
});

t.test('_limit and patient across pages; a small result is an ordinary body', async (t) => {
  const limited = await app.inject({ method: 'POST', url: `${sessionBase}/ViewDefinition/$run`, headers: FHIR_JSON, payload: runBody({ name: '_limit', valueInteger: 1234 }) });
  const rows = JSON.parse(limited.body) as { id: string }[];
  t.equal(rows.length, 1234, '_limit counts rows across pages');
  t.equal(new Set(rows.map((r) => r.id)).size, 1234);

  const one = await app.inject({
    method: 'POST', url: `${sessionBase}/ViewDefinition/$run`, headers: FHIR_JSON,
    payload: runBody({ name: 'patient', valueReference: { reference: 'Patient/p3' } }, { name: '_limit', valueInteger: 2 }),
  });
  t.ok(one.headers['content-length'], 'a result smaller than one chunk has a content-length');
  t.same((JSON.parse(one.body) as { id: string }[]).map((r) => r.id), ['o0003', 'o0010']);
});

t.test('writes succeed while a $run response is only partly produced, and the stream reads on after them', async (t) => {
  const req: FhirRequest = {
    method: 'POST', path: 'ViewDefinition/$run', query: [], headers: {}, contentType: 'application/fhir+json',
    body: JSON.parse(runBody({ name: '_format', valueCode: 'ndjson' })), baseUrl: `http://localhost${sessionBase}`,
    repo: sessions.repositoryFor(session.meta.id), context,
  };
  const response = route(req);
  t.ok(response.stream, 'a large result is a stream');
  const iterator = response.stream![Symbol.asyncIterator]();
  const first = await iterator.next();
  t.notOk(first.done);
  const seenFirst = (first.value as string).trimEnd().split('\n').length;
  t.ok(seenFirst < sessionExpected().size / 2, 'paused early in the output');

  // A cursor held open across chunks would make these fail ("connection is busy").
  const created = await app.inject({ method: 'PUT', url: `${sessionBase}/Observation/zz-late`, headers: FHIR_JSON, payload: JSON.stringify(obs('zz-late', 1)) });
  t.equal(created.statusCode, 201, 'a create during the stream');
  const deleted = await app.inject({ method: 'DELETE', url: `${sessionBase}/Observation/o2998` });
  t.equal(deleted.statusCode, 200, 'a delete during the stream');

  let rest = '';
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest += next.value;
  const ids = rest.trimEnd().split('\n').map((line) => (JSON.parse(line) as { id: string }).id);
  t.ok(ids.includes('zz-late'), 'a resource created past the stream position is read');
  t.notOk(ids.includes('o2998'), 'a resource deleted past the stream position is not');
});
