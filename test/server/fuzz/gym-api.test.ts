// Property: the gym API (session create with arbitrary bodies and formats, the per-session routes with arbitrary
// ids and queries, tool calls with arbitrary names and arguments) never answers 5xx or hangs, and every error body
// is a JSON OperationOutcome. Tool results are 200s (their errors are `isError` results), so only the HTTP layer
// is judged.
import t from 'tap';
import fc from 'fast-check';
import { anyText, bundle, fhirishResource, oddString } from './arbitraries.ts';
import { checkProperty, defect, send, startFuzzServer } from './fuzz-client.ts';

const TOOLS = ['fhir_search', 'fhir_read', 'fhir_create', 'fhir_update', 'fhir_patch', 'fhir_delete', 'fhir_history', 'terminology_search', 'terminology_lookup', 'run_view', 'sql_query', 'evidence_search', 'finish'];

const scalar = fc.oneof(fc.constantFrom(null, true, 0, -1, 1e9, '', 'Patient', 'p1', 'Observation', 'code=2823-3', '_count=10000&_include=*', 'SELECT 1', '2020-01-01T00:00:00Z', 'x'), oddString, fc.double());
const toolArgs = fc.oneof(
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 4, arbitrary: fc.dictionary(
    fc.constantFrom('resourceType', 'id', 'params', 'query', 'resource', 'patch', 'system', 'code', 'count', 'view', 'sql', 'patient', 'answer', 'files', 'format', 'extra'),
    fc.oneof(scalar, fhirishResource, fc.dictionary(fc.string({ maxLength: 6 }), scalar, { maxKeys: 4 }), fc.array(scalar, { maxLength: 3 })),
    { maxKeys: 5 },
  ) },
);

const sessionBody = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.record({
    task: fc.oneof(fc.constantFrom('x', '', '../etc/passwd'), anyText(8)),
    variant: fc.oneof(fc.constantFrom('p1', 'population'), anyText(8)),
    now: fc.oneof(fc.constantFrom('2020-01-01T00:00:00Z', '2020-13-01', 'yesterday', ''), scalar),
    fixture: fc.oneof(bundle, scalar),
    toolOptions: fc.oneof(fc.dictionary(fc.constantFrom('decodeAttachments', 'x'), scalar, { maxKeys: 2 }), scalar),
  }, { requiredKeys: [] }),
);

t.test('the gym API: no 5xx, no hang, errors are OperationOutcomes', async (t) => {
  const server = await startFuzzServer(t);
  const created = await send(server.root, { method: 'POST', path: '/gym/sessions', body: {}, contentType: 'application/json' });
  const live = (JSON.parse(created.body) as { id: string }).id;
  const id = fc.oneof(fc.constant(live), fc.constantFrom('default', 'AAAAAAAAAAAAAAAAAAAAAAAA', '..', '%2E', '%00', ''), anyText(10).map(encodeURIComponent));
  const format = fc.constantFrom('', '?format=openai', '?format=anthropic', '?format=mcp', '?format=neutral', '?format=x', '?format=', '?format=%00');
  const request = fc.oneof(
    fc.tuple(format, sessionBody).map(([f, b]) => ({ method: 'POST', path: `/gym/sessions${f}`, body: b as unknown })),
    fc.tuple(id, fc.oneof(fc.constantFrom(...TOOLS), anyText(8).map(encodeURIComponent)), toolArgs).map(([i, n, a]) => ({ method: 'POST', path: `/gym/sessions/${i}/tools/${n}`, body: a as unknown })),
    fc.tuple(fc.constantFrom('GET', 'DELETE', 'POST', 'PUT'), id, fc.constantFrom('', '/reset', '/submit', '/log', '/changes', '/tools', '/x'), fc.constantFrom('', '?after=0', '?after=-1&limit=1000000', '?limit=x', '?after=%00', '?limit=0'), fc.option(toolArgs, { nil: undefined }))
      .map(([m, i, r, q, b]) => ({ method: m, path: `/gym/sessions/${i}${r}${q}`, body: b as unknown })),
    format.map((f) => ({ method: 'GET', path: `/gym/tools${f}`, body: undefined as unknown })),
  );
  await checkProperty(t, 'gym API', request, async (r) => {
    // The live session may be deleted or submitted by an earlier run; both are fine answers to later ones.
    const problem = await defect(server.root, { ...r, contentType: 'application/json' });
    return problem && `${problem}\n  request: ${r.method} ${r.path.slice(0, 200)} ${JSON.stringify(r.body)?.slice(0, 300)}`;
  }, 300);
});
