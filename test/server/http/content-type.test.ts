// Content negotiation (FHIR R4 3.1.0.1.10): JSON in any of its spellings is accepted, the answer is always
// application/fhir+json; charset=utf-8 (even to `_format=json`), `_pretty` indents, XML is 406.
import t from 'tap';
import { assertClientOutcome, assertOutcome, bodyOf, FHIR_JSON_UTF8, injectApp, JSON_HEADERS, patientBody, startServer } from '../test-server.ts';
import { MAX_JSON_DEPTH, assertJsonAcceptable, nestingDepth } from '../../../server/http/content-type.ts';

t.test('inject: every JSON request flavour is answered as application/fhir+json; charset=utf-8', async (t) => {
  const { app } = injectApp(t);
  await app.inject({ method: 'PUT', url: '/fhir/Patient/p1', headers: JSON_HEADERS, payload: patientBody({ id: 'p1' }) });
  const cases: [string, Record<string, string>][] = [
    ['/fhir/Patient/p1', {}],
    ['/fhir/Patient/p1', { accept: 'application/fhir+json' }],
    ['/fhir/Patient/p1', { accept: 'application/json' }],
    ['/fhir/Patient/p1', { accept: 'application/json; charset=utf-8' }],
    ['/fhir/Patient/p1', { accept: '*/*' }],
    ['/fhir/Patient/p1', { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' }],
    ['/fhir/Patient/p1', { accept: 'application/fhir+xml;q=0.9, application/fhir+json;q=0.5' }],
    ['/fhir/Patient/p1?_format=json', {}],
    ['/fhir/Patient/p1?_format=application/json', {}],
    ['/fhir/Patient/p1?_format=application/fhir%2Bjson', {}],
    // _format wins over Accept (3.1.0.1.10).
    ['/fhir/Patient/p1?_format=json', { accept: 'application/fhir+xml' }],
  ];
  for (const [url, headers] of cases) {
    const res = await app.inject({ url, headers });
    t.equal(res.statusCode, 200, `${url} ${JSON.stringify(headers)}`);
    t.equal(res.headers['content-type'], FHIR_JSON_UTF8, `${url} ${JSON.stringify(headers)}: type`);
  }
});

t.test('inject: XML (or anything with no JSON alternative) is 406 with an OperationOutcome', async (t) => {
  const { app } = injectApp(t);
  await app.inject({ method: 'PUT', url: '/fhir/Patient/p1', headers: JSON_HEADERS, payload: patientBody({ id: 'p1' }) });
  for (const [url, headers] of [
    ['/fhir/Patient/p1?_format=xml', {}],
    ['/fhir/Patient/p1?_format=application/fhir%2Bxml', {}],
    ['/fhir/Patient/p1?_format=text/turtle', {}],
    ['/fhir/Patient/p1', { accept: 'application/fhir+xml' }],
    ['/fhir/Patient/p1', { accept: 'application/xml, text/xml' }],
    ['/fhir/Patient/p1?_format=xml', { accept: 'application/fhir+json' }],
    ['/fhir/metadata?_format=xml', {}],
  ] as [string, Record<string, string>][]) {
    const oo = assertOutcome(t, await app.inject({ url, headers }), 406);
    t.equal(oo.issue[0].code, 'not-supported', url);
  }
  // An XML body is refused as a media type, whatever it asks back.
  assertOutcome(t, await app.inject({ method: 'POST', url: '/fhir/Patient', headers: { 'content-type': 'application/fhir+xml' }, payload: '<Patient/>' }), 415);
});

t.test('inject: _pretty', async (t) => {
  const { app } = injectApp(t);
  const created = await app.inject({ method: 'POST', url: '/fhir/Patient?_pretty=true', headers: JSON_HEADERS, payload: patientBody() });
  t.match(created.body, /^\{\n {2}"resourceType"/, '_pretty on a write reply');
  const compact = await app.inject({ url: '/fhir/metadata?_pretty=false' });
  t.notMatch(compact.body, /\n/);
  const error = await app.inject({ url: '/fhir/Patient/nobody?_pretty=true' });
  t.equal(error.statusCode, 404);
  t.equal(bodyOf(error).resourceType, 'OperationOutcome');
});

t.test('inject: form bodies for POST _search are parsed as ordered parameters', async (t) => {
  const { app } = injectApp(t);
  // The search engine answers the search itself; here only the parsing matters: a form body is accepted (not 415).
  const res = await app.inject({ method: 'POST', url: '/fhir/Patient/_search', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=a&name=b' });
  t.not(res.statusCode, 415);
  t.not(res.statusCode, 400);
});

t.test('nestingDepth counts brackets outside strings', async (t) => {
  t.equal(nestingDepth('{}'), 1);
  t.equal(nestingDepth('{"a":[{"b":1}]}'), 3);
  t.equal(nestingDepth('{"a":"[[[[{{{{"}'), 1, 'brackets inside strings do not count');
  t.equal(nestingDepth('{"a":"\\"[[["}'), 1, 'escaped quotes do not end a string');
  t.equal(nestingDepth('{"a":"\\\\","b":[[1]]}'), 3, 'an escaped backslash before the closing quote');
  t.equal(nestingDepth('[' .repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1)), MAX_JSON_DEPTH + 1);
});

t.test('inject: bodies nested too deeply are a 400, not a stack overflow', async (t) => {
  const { app } = injectApp(t);
  const nested = (n: number) => '{"url":"http://x","extension":['.repeat(n) + '{"url":"http://x","valueString":"v"}' + ']}'.repeat(n);
  const ok = await app.inject({ method: 'POST', url: '/fhir/Patient', headers: JSON_HEADERS, payload: `{"resourceType":"Patient","extension":[${nested(40)}]}` });
  t.equal(ok.statusCode, 201, 'deep but realistic nesting is fine');
  for (const url of ['/fhir/Patient', '/fhir/Patient/$validate']) {
    assertOutcome(t, await app.inject({ method: 'POST', url, headers: JSON_HEADERS, payload: `{"resourceType":"Patient","extension":[${nested(3000)}]}` }), 400);
  }
});

t.test('assertJsonAcceptable', async (t) => {
  t.doesNotThrow(() => assertJsonAcceptable(undefined, undefined));
  t.doesNotThrow(() => assertJsonAcceptable('json', 'application/xml'));
  t.doesNotThrow(() => assertJsonAcceptable(undefined, 'application/*'));
  const statusOf = (fn: () => void) => {
    try {
      fn();
      return 200;
    } catch (err) {
      return (err as { status: number }).status;
    }
  };
  t.equal(statusOf(() => assertJsonAcceptable('xml', undefined)), 406);
  t.equal(statusOf(() => assertJsonAcceptable(undefined, 'text/plain')), 406);
});

t.test('fhir-kit-client: _format=json and Accept variants get FHIR JSON; XML gets 406', async (t) => {
  const { client, baseUrl } = await startServer(t);
  const created = await client.create({ resourceType: 'Patient', body: patientBody() as never });
  const id = (created as { id: string }).id;
  for (const accept of ['application/json', 'application/fhir+json', '*/*']) {
    const res = await fetch(`${baseUrl}/Patient/${id}?_format=json`, { headers: { accept } });
    t.equal(res.status, 200);
    t.equal(res.headers.get('content-type'), FHIR_JSON_UTF8, accept);
  }
  await assertClientOutcome(t, client.read({ resourceType: 'Patient', id, options: { headers: { accept: 'application/fhir+xml' } } }), 406);
  await assertClientOutcome(t, client.request(`Patient/${id}?_format=xml`), 406);
  const json = await fetch(`${baseUrl}/Patient`, {
    method: 'POST', headers: { 'content-type': 'application/json; charset=UTF-8' }, body: JSON.stringify(patientBody()),
  });
  t.equal(json.status, 201, 'application/json with a charset is accepted');
  t.equal(json.headers.get('content-type'), FHIR_JSON_UTF8);
  const text = await fetch(`${baseUrl}/Patient`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(patientBody()) });
  t.equal(text.status, 415);
  t.equal(((await text.json()) as { resourceType: string }).resourceType, 'OperationOutcome');
});
