// A per-request time budget (requestTimeBudgetMs): the synchronous engine checks it where a request loops over data,
// and past it answers 422 too-costly instead of holding every session. Here the budget is 1 ms, far below what each
// heavy request needs, while a light read in another session answers normally.
import t, { type Test } from 'tap';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { assertOutcome, bodyOf, startServer, type TestServer } from '../test-server.ts';
import { http, observationOf, putAll } from './limits-harness.ts';

const OBSERVATIONS = 900;

/** A server with one patient and many observations, whose budget is then cut to 1 ms (the setting is read per request). */
async function heavyServer(t: Test): Promise<{ call: ReturnType<typeof http>; server: TestServer; root: string }> {
  const server = await startServer(t);
  const call = http(server.baseUrl);
  const seed = await call('POST', '', putAll([{ resourceType: 'Patient', id: 'p' } as Resource, ...Array.from({ length: OBSERVATIONS }, (_, i) => observationOf(`o${i}`, 'p'))]));
  t.equal(seed.statusCode, 200, 'seeded under the default budget');
  server.context.settings.requestTimeBudgetMs = 1;
  return { call, server, root: server.baseUrl.replace(/\/fhir$/, '') };
}

/** A session with its own patient, for the light read that must not be affected. */
async function lightSession(root: string): Promise<string> {
  const created = await fetch(`${root}/gym/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const { id } = (await created.json()) as { id: string };
  const patient = await http(root)('PUT', `/fhir/_session/${id}/Patient/light`, { resourceType: 'Patient', id: 'light' });
  if (patient.statusCode !== 201) throw new Error(`session patient: ${patient.statusCode} ${patient.body}`);
  return `/fhir/_session/${id}/Patient/light`;
}

t.test('a heavy search answers too-costly while a light read in another session answers 200', async (t) => {
  const { call, root } = await heavyServer(t);
  const light = await lightSession(root);
  const [heavy, read] = await Promise.all([
    call('GET', `/Observation?_count=${OBSERVATIONS}&_include=Observation:subject&_revinclude:iterate=Observation:subject`),
    http(root)('GET', light),
  ]);
  const oo = assertOutcome(t, heavy, 422, 'too-costly');
  t.match(oo.issue?.[0].diagnostics, /time budget of 1 ms/);
  t.equal(read.statusCode, 200, 'the light read in another session');
  t.equal(bodyOf<Resource>(read).id, 'light');
});

t.test('$everything, $expand and a transaction stop at the budget', async (t) => {
  const { call } = await heavyServer(t);
  assertOutcome(t, await call('GET', '/Patient/p/$everything?_count=1000'), 422, 'too-costly');
  // A pattern of its own, so no cached expansion answers it; the terminology index is built before the budget starts.
  const expand = await call('POST', '/ValueSet/$expand', { resourceType: 'Parameters', parameter: [
    { name: 'valueSet', resource: { resourceType: 'ValueSet', status: 'active', compose: { include: [{ system: 'http://loinc.org', filter: [{ property: 'display', op: 'regex', value: `.*budget-${Date.now()}.*` }] }] } } },
    { name: 'count', valueInteger: 5 },
  ] });
  assertOutcome(t, expand, 422, 'too-costly');
  const transaction = await call('POST', '', putAll(Array.from({ length: 500 }, (_, i) => ({ resourceType: 'Patient', id: `t${i}` }) as Resource)));
  assertOutcome(t, transaction, 422, 'too-costly');
  t.equal((await call('GET', '/Patient/t499')).statusCode, 404, 'the transaction wrote nothing');
});

t.test('a batch past the budget answers 200; the entries not run fail as too-costly', async (t) => {
  const { call } = await heavyServer(t);
  const batch: Bundle = { resourceType: 'Bundle', type: 'batch', entry: Array.from({ length: 200 }, () => ({ request: { method: 'GET' as const, url: `Observation?_count=${OBSERVATIONS}` } })) };
  const res = await call('POST', '', batch);
  t.equal(res.statusCode, 200);
  const last = bodyOf<Bundle>(res).entry?.at(-1);
  t.match(last?.response?.status, /^422/);
  t.equal((last?.response?.outcome as { issue?: { code?: string }[] } | undefined)?.issue?.[0].code, 'too-costly');
});

t.test('0 means no budget', async (t) => {
  const { call, server } = await heavyServer(t);
  server.context.settings.requestTimeBudgetMs = 0;
  const res = await call('GET', `/Observation?_count=${OBSERVATIONS}&_include=Observation:subject`);
  t.equal(res.statusCode, 200);
  t.equal(bodyOf<Bundle>(res).entry?.length, OBSERVATIONS + 1);
});
