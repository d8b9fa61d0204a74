// The fuzz corpus: every malformed or abusive input issue 14 names in its "Why" section, sent over a real socket.
// Each must meet the suite's contract (no 5xx, no hang, every error a JSON OperationOutcome) and, where the issue
// says what the answer should be, that answer. Regressions the property runs found are at the end.
import t from 'tap';
import type { Test } from 'tap';
import { defect, parseRaw, rawExchange, send, startFuzzServer, verdict, type FuzzRequest, type FuzzServer } from './fuzz-client.ts';

const ADMIN = 'corpus-operator-token';

const patient = (id: string) => ({ resourceType: 'Patient', id, name: [{ family: 'Corpus' }], gender: 'female' });

async function seed(t: Test, server: FuzzServer): Promise<void> {
  for (const id of ['s1-p1', 'p2']) {
    const res = await send(server.root, { method: 'PUT', path: `/fhir/Patient/${id}`, body: patient(id) });
    t.equal(res.status, 201, `Patient/${id} stored`);
  }
}

/** Sends each case; asserts the contract, then the status (a number or a class such as 4 for 4xx) when given. */
async function expectAll(t: Test, root: string, cases: [string, FuzzRequest, number?][]): Promise<void> {
  for (const [name, req, status] of cases) {
    const answer = await send(root, req).catch((err: Error) => ({ status: 0, contentType: '', body: `${err.name}: ${err.message}` }));
    t.equal(verdict(answer) ?? (answer.status === 0 ? answer.body : undefined), undefined, `${name}: meets the contract`);
    if (status !== undefined && status < 10) t.equal(Math.floor(answer.status / 100), status, `${name}: ${status}xx (got ${answer.status})`);
    else if (status !== undefined) t.equal(answer.status, status, `${name}: ${status}`);
  }
}

const post = (path: string, body: unknown): FuzzRequest => ({ method: 'POST', path, body });
const get = (path: string): FuzzRequest => ({ method: 'GET', path });
const params = (...parameter: unknown[]) => ({ resourceType: 'Parameters', parameter });
const inlineValueSet = (include: unknown) => ({ resourceType: 'ValueSet', status: 'active', compose: { include: [include] } });

t.test('validation holes: complex-typed elements given primitives are 400s', async (t) => {
  const server = await startFuzzServer(t);
  await seed(t, server);
  const obs = (extra: Record<string, unknown>) => ({ resourceType: 'Observation', status: 'final', code: { text: 'x' }, subject: { reference: 'Patient/s1-p1' }, ...extra });
  await expectAll(t, server.root, [
    ['code "abc"', post('/fhir/Observation', obs({ code: 'abc' })), 400],
    ['subject as a string', post('/fhir/Observation', obs({ subject: 'Patient/s1-p1' })), 400],
    ['valueQuantity 5', post('/fhir/Observation', obs({ valueQuantity: 5 })), 400],
    ['component code "abc"', post('/fhir/Observation', obs({ component: [{ code: 'abc' }] })), 400],
    ['dosageInstruction route "IV"', post('/fhir/MedicationRequest', {
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: 'Patient/s1-p1' },
      medicationCodeableConcept: { text: 'x' }, dosageInstruction: [{ route: 'IV' }],
    }), 400],
  ]);
  const count = await send(server.root, get('/fhir/Observation?_summary=count'));
  t.equal(JSON.parse(count.body).total, 0, 'none of them was stored');
});

t.test('references that resolve to nothing are refused (4xx)', async (t) => {
  const server = await startFuzzServer(t);
  await seed(t, server);
  const withSubject = (reference: string) => post('/fhir/Observation', { resourceType: 'Observation', status: 'final', code: { text: 'x' }, subject: { reference } });
  await expectAll(t, server.root, [
    ['"Patient?"', withSubject('Patient?'), 4],
    ['"Patient/"', withSubject('Patient/'), 4],
    ['"#nope"', withSubject('#nope'), 4],
    ['urn:uuid outside a transaction', withSubject('urn:uuid:1b4e28ba-2fa1-11d2-883f-0016d3cca427'), 4],
    ['a version that does not exist', withSubject('Patient/s1-p1/_history/999'), 4],
  ]);
  const count = await send(server.root, get('/fhir/Observation?_summary=count'));
  t.equal(JSON.parse(count.body).total, 0, 'none of them was stored');
});

t.test('the seven inputs that answered 5xx', async (t) => {
  const server = await startFuzzServer(t);
  await seed(t, server);
  const many = Array.from({ length: 600 }, (_, i) => `g${i}`).join(',');
  const chain = (links: number) => `/fhir/Observation?subject:Patient.${'link:Patient.'.repeat(links - 1)}name=x`;
  await expectAll(t, server.root, [
    ['_text=%00', get('/fhir/Patient?_text=%00')],
    ['_content=%00', get('/fhir/Patient?_content=%00')],
    ['gender= with 600 values', get(`/fhir/Patient?gender=${many}`), 400],
    ['a transaction whose entry holds null', post('/fhir', { resourceType: 'Bundle', type: 'transaction', entry: [null] }), 400],
    ['a batch whose entry holds null', post('/fhir', { resourceType: 'Bundle', type: 'batch', entry: [null] }), 400],
    ['$validate with "parameter": "x"', post('/fhir/Patient/$validate', { resourceType: 'Parameters', parameter: 'x' }), 400],
    ['an inline ValueSet whose include.concept is a string', post('/fhir/ValueSet/$expand', params({ name: 'valueSet', resource: inlineValueSet({ system: 'http://loinc.org', concept: 'abc' }) })), 400],
    ['$sqlquery-run with a view named sqlite_master', post('/fhir/$sqlquery-run', params(
      { name: 'query', valueString: 'SELECT * FROM sqlite_master' },
      { name: 'view', resource: { resourceType: 'ViewDefinition', name: 'sqlite_master', resource: 'Patient', status: 'active', select: [{ column: [{ name: 'id', path: 'id' }] }] } },
    )), 4],
    ['a chain of 11 links', get(chain(11)), 400],
    ['a chain of 30 links', get(chain(30)), 400],
  ]);
});

t.test('requests that froze the server answer (no hang) without a 5xx', async (t) => {
  const server = await startFuzzServer(t);
  await seed(t, server);
  const columns = Array.from({ length: 200_000 }, (_, i) => ({ name: `c${i}`, path: 'id' }));
  const batch = { resourceType: 'Bundle', type: 'batch', entry: Array.from({ length: 50_000 }, () => ({ request: { method: 'GET', url: 'Patient/s1-p1' } })) };
  await expectAll(t, server.root, [
    ['a catastrophic regex filter in an inline ValueSet', post('/fhir/ValueSet/$expand', params({
      name: 'valueSet', resource: inlineValueSet({ system: 'http://loinc.org', filter: [{ property: 'code', op: 'regex', value: '(.|.)*#' }] }),
    }))],
    ['_count=10000 with every _include and _revinclude, iterated', get('/fhir/Observation?_count=10000&_include=*&_revinclude=*&_include:iterate=*&_revinclude:iterate=*')],
    ['type-level $everything', get('/fhir/Patient/$everything')],
    ['$run with 200k columns', post('/fhir/ViewDefinition/$run', params({ name: 'viewResource', resource: { resourceType: 'ViewDefinition', resource: 'Patient', status: 'active', select: [{ column: columns }] } })), 4],
    ['a 50k-entry batch', post('/fhir', batch), 4],
  ]);
  // Twenty of the include storms at once: every one answers.
  const storms = await Promise.all(Array.from({ length: 20 }, () => defect(server.root, get('/fhir/Observation?_count=10000&_include=*&_revinclude=*&_include:iterate=*&_revinclude:iterate=*'))));
  t.same(storms.filter(Boolean), [], '20 concurrent include storms all answer within the contract');
});

t.test('$run with group: served (members\' compartments), an unknown Group a 404 OperationOutcome', async (t) => {
  const server = await startFuzzServer(t);
  const view = { resourceType: 'ViewDefinition', resource: 'Patient', status: 'active', select: [{ column: [{ name: 'id', path: 'id' }] }] };
  const answer = await send(server.root, post('/fhir/ViewDefinition/$run', params({ name: 'viewResource', resource: view }, { name: 'group', valueReference: { reference: 'Group/g' } })));
  t.equal(answer.status, 404, 'the Group is not known: a 4xx, never 501');
  t.equal(JSON.parse(answer.body).resourceType, 'OperationOutcome');
});

t.test('abuse of shared state', async (t) => {
  const server = await startFuzzServer(t, { adminToken: ADMIN, gym: { maxSessionsPerClient: 100, sessionCreateBurst: 60, sessionCreatesPerMinute: 120 } });
  await t.test('1000 session creations from one client: the excess is 429 with Retry-After', async (t) => {
    const statuses = new Map<number, number>();
    let retryAfter: string | null = null;
    let problem: string | undefined;
    for (let i = 0; i < 1000; i++) {
      const res = await fetch(`${server.root}/gym/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      const body = await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      problem ??= verdict({ status: res.status, contentType: res.headers.get('content-type') ?? '', body });
      if (res.status === 429) {
        retryAfter ??= res.headers.get('retry-after');
        if (statuses.get(429)! >= 50) break;
      }
    }
    t.equal(problem, undefined, 'every answer meets the contract');
    t.ok((statuses.get(201) ?? 0) <= 100, `at most the per-client quota created (${statuses.get(201)})`);
    t.ok((statuses.get(429) ?? 0) > 0, 'the excess is throttled');
    t.match(retryAfter, /^\d+$/, 'Retry-After in seconds');
  });
  await t.test('the default session reset needs the operator token', async (t) => {
    await expectAll(t, server.root, [['reset without a token', post('/gym/sessions/default/reset', {}), 401]]);
  });
  await t.test('a rejected 10 MB body is kept as a bounded prefix in the log', async (t) => {
    const created = await fetch(`${server.root}/gym/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    t.equal(created.status === 201 || created.status === 429, true, 'a session or a throttle');
    if (created.status !== 201) return;
    const { id } = (await created.json()) as { id: string };
    const huge = { resourceType: 'Patient', gender: 42, text: { status: 'generated', div: 'x'.repeat(10 * 1024 * 1024) } };
    await expectAll(t, server.root, [['10 MB invalid Patient', post(`/fhir/_session/${id}/Patient`, huge), 4]]);
    const log = await fetch(`${server.root}/gym/sessions/${id}/log`);
    const text = await log.text();
    t.ok(text.length < 64 * 1024, `the log holds a prefix, not the body (${text.length} characters)`);
  });
});

t.test('smaller defects', async (t) => {
  const server = await startFuzzServer(t, { adminToken: ADMIN });
  await seed(t, server);
  await t.test('HTTP parser errors are OperationOutcomes', async (t) => {
    const requests: [string, string][] = [
      ['a bad byte in the path', 'GET /fhir/Pat\x01ient HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n'],
      ['a bad byte in a header', 'GET /fhir/Patient HTTP/1.1\r\nHost: h\r\nX-Bad: a\x01b\r\nConnection: close\r\n\r\n'],
      ['headers over 16 KB', `GET /fhir/Patient HTTP/1.1\r\nHost: h\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`],
      ['no Host', 'GET /fhir/Patient HTTP/1.1\r\nConnection: close\r\n\r\n'],
      ['a malformed request line', 'GARBAGE\r\n\r\n'],
      ['a bad chunk size', 'POST /fhir/Patient HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nContent-Type: application/fhir+json\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n'],
    ];
    for (const [name, request] of requests) {
      const answer = parseRaw(await rawExchange(server.port, request));
      t.equal(Math.floor(answer.status / 100), 4, `${name}: 4xx (${answer.status})`);
      t.equal(verdict(answer), undefined, `${name}: an OperationOutcome`);
    }
  });
  await t.test('ids "." and ".." are refused', async (t) => {
    for (const id of ['.', '..']) {
      const put = `PUT /fhir/Patient/${id} HTTP/1.1\r\nHost: h\r\nContent-Type: application/fhir+json\r\nConnection: close\r\n`;
      const body = JSON.stringify(patient(id));
      const answer = parseRaw(await rawExchange(server.port, `${put}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`));
      t.equal(verdict(answer), undefined, `PUT Patient/${id}: meets the contract`);
      t.not(answer.status, 201, `PUT Patient/${id} is not stored`);
    }
    // fetch (the WHATWG URL parser) turns %2E segments into dot segments, so escaped dots go as raw bytes too.
    for (const path of ['/fhir/Patient/%2E', '/fhir/Patient/%2E%2E', '/fhir/Patient/%2e%2E/_history']) {
      const answer = parseRaw(await rawExchange(server.port, `GET ${path} HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n`));
      t.equal(verdict(answer), undefined, `GET ${path}: meets the contract`);
      t.equal(Math.floor(answer.status / 100), 4, `GET ${path}: 4xx (${answer.status})`);
    }
    await expectAll(t, server.root, [['POST with id ".."', post('/fhir/Patient', patient('..')), 400]]);
  });
  await t.test('mistargeted session paths are 404s and never logged in the default session', async (t) => {
    const created = await send(server.root, post('/gym/sessions', {}));
    const { id } = JSON.parse(created.body) as { id: string };
    await expectAll(t, server.root, [
      ['%252F', get(`/fhir/_session%252F${id}/Patient`), 404],
      ['%2F', get(`/fhir/_session%2F${id}/Patient`), 404],
      [';', get(`/fhir;_session/${id}/Patient`), 4],
    ]);
    for (const dot of ['.', '%2E']) {
      const raw = parseRaw(await rawExchange(server.port, `GET /fhir/${dot}/_session/${id}/Patient HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n`));
      t.equal(verdict(raw), undefined, `/fhir/${dot}/_session/ID: meets the contract`);
      t.equal(raw.status, 404, `/fhir/${dot}/_session/ID: 404`);
    }
    const log = await fetch(`${server.root}/gym/sessions/default/log?limit=1000`, { headers: { authorization: `Bearer ${ADMIN}` } });
    t.equal(log.status, 200, 'the operator reads the default log');
    t.notOk((await log.text()).includes(id), 'the session id is not in the default log');
  });
  await t.test('the Host header is not echoed into Location', async (t) => {
    const body = JSON.stringify(patient('ignored'));
    const text = await rawExchange(server.port, `POST /fhir/Patient HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/fhir+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    t.match(text, /^HTTP\/1\.1 201/, 'created');
    t.notMatch(text, /evil\.example/, 'the forged host appears nowhere in the answer');
  });
  await t.test('search honours the configured maxPageSize', async (t) => {
    const small = await startFuzzServer(t, { settings: { maxPageSize: 1 } });
    await seed(t, small);
    const res = await send(small.root, get('/fhir/Patient?_count=500'));
    t.equal(res.status, 200);
    t.equal(JSON.parse(res.body).entry?.length, 1, 'one entry per page');
  });
  // Issue 14 item 5: a CodeSystem written through the API is what $lookup serves (server/operations/terminology-stored.ts).
  await t.test('POST CodeSystem then $lookup in the same session', async (t) => {
    const codeSystem = { resourceType: 'CodeSystem', url: 'http://example.org/fuzz-cs', status: 'active', content: 'complete', concept: [{ code: 'a', display: 'Alpha' }] };
    await expectAll(t, server.root, [
      ['POST CodeSystem', post('/fhir/CodeSystem', codeSystem), 201],
      ['$lookup on it', get('/fhir/CodeSystem/$lookup?system=http://example.org/fuzz-cs&code=a'), 200],
    ]);
  });
  await t.test('a display with a no-break space is valid', async (t) => {
    await expectAll(t, server.root, [['DiagnosticReport with U+00A0 in a display', post('/fhir/DiagnosticReport', {
      resourceType: 'DiagnosticReport', status: 'final', subject: { reference: 'Patient/s1-p1' },
      code: { coding: [{ system: 'http://loinc.org', code: '22049-1', display: 'Cyto\u00a0report' }] },
    }), 201]]);
  });
});

// Inputs the property runs found (seed 1402) answered 5xx, each fixed in the file that owns it.
t.test('regressions found by the fuzzer', async (t) => {
  const server = await startFuzzServer(t);
  await expectAll(t, server.root, [
    // resources/search/plan.ts: FTS5 ended the quoted term at the NUL ("unterminated string").
    ['_text with a NUL inside a word', get('/fhir/Patient?_text=ab%00cd')],
    ['_content with control characters', get('/fhir/Patient?_content=%01%02%1F')],
    // server/operations/sql-query.ts: SQLite refuses CREATE TABLE sqlite_*.
    ['$sqlquery-run with a view named sqlite_stat1', post('/fhir/$sqlquery-run', params(
      { name: 'query', valueString: 'SELECT 1' },
      { name: 'view', resource: { resourceType: 'ViewDefinition', name: 'SQLITE_stat1', resource: 'Patient', status: 'active', select: [{ column: [{ name: 'id', path: 'id' }] }] } },
    )), 400],
    // server/interactions/operation.ts: a null `resource` was stripped before the envelope check, then read.
    ['$expand with "resource": null', post('/fhir/ValueSet/$expand', params({ name: 'valueSet', resource: null })), 400],
    ['$validate with "resource": "x"', post('/fhir/Patient/$validate', params({ name: 'resource', resource: 'x' })), 400],
    ['a null resource in a nested part', post('/fhir/ValueSet/$expand', params({ name: 'x', part: [{ name: 'valueSet', resource: null }] })), 400],
  ]);
});
