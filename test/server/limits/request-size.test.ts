// Size bounds checked before any work: batch/transaction entries (maxBatchEntries, 413), $run columns
// (maxViewColumns, 400) and type-level Patient/$everything (maxEverythingPatients, 422 too-costly).
import t from 'tap';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { assertOutcome, bodyOf, startServer } from '../test-server.ts';
import { http, putAll } from './limits-harness.ts';

const searches = (n: number, type: 'batch' | 'transaction' = 'batch'): Bundle => ({
  resourceType: 'Bundle', type,
  entry: Array.from({ length: n }, () => ({ request: { method: 'GET' as const, url: 'Patient?_count=0' } })),
});

t.test('a batch or transaction past maxBatchEntries (default 1000) is a 413 before any entry runs', async (t) => {
  const { baseUrl } = await startServer(t);
  const call = http(baseUrl);
  const oo = assertOutcome(t, await call('POST', '', searches(1001)), 413, 'too-costly');
  t.match(oo.issue?.[0].diagnostics, /1001 entries; .* at most 1000/);
  t.same(oo.issue?.[0].expression, ['Bundle.entry']);
  assertOutcome(t, await call('POST', '', putAll(Array.from({ length: 1001 }, (_, i) => ({ resourceType: 'Patient', id: `p${i}` }) as Resource))), 413, 'too-costly');
  t.equal(bodyOf<Bundle>(await call('GET', '/Patient?_count=0')).total, 0, 'nothing of the refused transaction was written');
  const ok = await call('POST', '', searches(1000));
  t.equal(ok.statusCode, 200, 'exactly 1000 entries run');
  t.equal(bodyOf<Bundle>(ok).entry?.length, 1000);
});

t.test('maxBatchEntries is a setting', async (t) => {
  const { baseUrl } = await startServer(t, { settings: { maxBatchEntries: 2 } });
  const call = http(baseUrl);
  assertOutcome(t, await call('POST', '', searches(3, 'transaction')), 413, 'too-costly');
  t.equal((await call('POST', '', searches(2, 'transaction'))).statusCode, 200);
});

const viewWithColumns = (n: number) => ({
  resourceType: 'Parameters',
  parameter: [
    { name: 'viewResource', resource: { resourceType: 'ViewDefinition', resource: 'Patient', status: 'active', select: [
      { column: Array.from({ length: n - 1 }, (_, i) => ({ name: `c${i}`, path: 'id' })) },
      { select: [{ column: [{ name: 'last', path: 'gender' }] }] }, // nested selects count too
    ] } },
    { name: 'resource', resource: { resourceType: 'Patient', id: 'x', gender: 'female' } },
  ],
});

t.test('$run with more than maxViewColumns (default 1000) columns is a 400', async (t) => {
  const { baseUrl } = await startServer(t);
  const call = http(baseUrl);
  const oo = assertOutcome(t, await call('POST', '/ViewDefinition/$run', viewWithColumns(1001)), 400);
  t.match(oo.issue?.[0].diagnostics, /more than 1000 columns \(maxViewColumns\)/);
  const ok = await call('POST', '/ViewDefinition/$run', viewWithColumns(1000));
  t.equal(ok.statusCode, 200, ok.body.slice(0, 200));
  t.equal(Object.keys((JSON.parse(ok.body) as Record<string, unknown>[])[0]).length, 1000);
});

t.test('type-level Patient/$everything is refused past maxEverythingPatients (default 10); one patient still works', async (t) => {
  const { baseUrl } = await startServer(t);
  const call = http(baseUrl);
  const patients = Array.from({ length: 11 }, (_, i) => ({ resourceType: 'Patient', id: `p${i}` }) as Resource);
  t.equal((await call('POST', '', putAll(patients.slice(0, 10)))).statusCode, 200);
  t.equal((await call('GET', '/Patient/$everything')).statusCode, 200, 'ten patients: allowed');
  t.equal((await call('PUT', '/Patient/p10', patients[10])).statusCode, 201);
  const oo = assertOutcome(t, await call('GET', '/Patient/$everything'), 422, 'too-costly');
  t.match(oo.issue?.[0].diagnostics, /11 patients .*Patient\/\[id\]\/\$everything/);
  const one = await call('GET', '/Patient/p3/$everything');
  t.equal(one.statusCode, 200);
  t.same(bodyOf<Bundle>(one).entry?.map((e) => e.resource?.id), ['p3']);
});
