// history: [base]/_history, [base]/[type]/_history, [base]/[type]/[id]/_history (FHIR R4 3.1.0.10):
// newest first, deletions included, `_since` and `_count`, absolute paging links that carry all paging state.
import t, { type Test } from 'tap';
import type { Bundle, Patient } from '@medplum/fhirtypes';
import { virtualClock } from '../../../resources/storage/sandbox.ts';
import { validateResource } from '../../../resources/validation/validate.ts';
import { assertClientOutcome, assertOutcome, bodyOf, injectApp, JSON_HEADERS, observationBody, patientBody, startServer } from '../test-server.ts';

const START = new Date('2024-03-01T12:00:00.000Z');

/** p1: v1 create, v2 update, v3 delete; p2 created; o1 (Observation of p2) created; times strictly increasing. */
async function seeded(t: Test) {
  const built = injectApp(t, { clock: virtualClock(START) });
  const put = (url: string, payload: object) => built.app.inject({ method: 'PUT', url, headers: JSON_HEADERS, payload });
  await put('/fhir/Patient/p1', patientBody({ id: 'p1' }));
  await put('/fhir/Patient/p1', patientBody({ id: 'p1', active: true }));
  await built.app.inject({ method: 'DELETE', url: '/fhir/Patient/p1' });
  await put('/fhir/Patient/p2', patientBody({ id: 'p2' }));
  await put('/fhir/Observation/o1', observationBody('p2', { id: 'o1' }));
  const history = async (url: string) => {
    const res = await built.app.inject({ url });
    t.equal(res.statusCode, 200, url);
    return bodyOf<Bundle>(res);
  };
  return { ...built, history };
}

t.test('inject: instance history lists every version newest first, the deletion included', async (t) => {
  const { history } = await seeded(t);
  const bundle = await history('/fhir/Patient/p1/_history');
  t.equal(bundle.type, 'history');
  t.equal(bundle.total, 3);
  t.same(bundle.entry?.map((e) => e.response?.etag), ['W/"3"', 'W/"2"', 'W/"1"']);
  const [deletion, update, create] = bundle.entry!;
  t.equal(deletion.request?.method, 'DELETE');
  t.notOk(deletion.resource, 'a deletion has no resource');
  t.equal(update.request?.method, 'PUT');
  t.equal((update.resource as Patient).active, true);
  t.equal(create.request?.method, 'POST');
  t.equal(create.response?.status, '201');
  t.equal(create.fullUrl, 'http://localhost:80/fhir/Patient/p1', 'absolute fullUrl');
  t.ok(create.response?.lastModified);
  t.same(validateResource(bundle), [], 'the history Bundle is a valid R4 Bundle');
});

t.test('inject: type and system history', async (t) => {
  const { history } = await seeded(t);
  const patients = await history('/fhir/Patient/_history');
  t.equal(patients.total, 4);
  t.ok(patients.entry?.every((e) => e.fullUrl?.includes('/Patient/')), 'only Patients');
  const all = await history('/fhir/_history');
  t.equal(all.total, 5);
  t.same(all.entry?.map((e) => e.fullUrl?.replace('http://localhost:80/fhir/', '')), [
    'Observation/o1', 'Patient/p2', 'Patient/p1', 'Patient/p1', 'Patient/p1',
  ], 'newest first across types');
  t.equal((await history('/fhir/Observation/_history')).total, 1);
  t.equal((await history('/fhir/Encounter/_history')).total, 0);
});

t.test('inject: _since keeps versions at or after the instant', async (t) => {
  const { history } = await seeded(t);
  const all = await history('/fhir/_history');
  const third = all.entry![2].response!.lastModified!; // the deletion of p1
  const since = await history(`/fhir/_history?_since=${encodeURIComponent(third)}`);
  t.equal(since.total, 3, 'the deletion and the two later writes');
  t.same(since.entry?.map((e) => e.response?.lastModified), all.entry!.slice(0, 3).map((e) => e.response?.lastModified));
  // Same instant written with a time-zone offset, '+' left unencoded as harnesses do.
  const offset = new Date(Date.parse(third)).toISOString().replace('T12:', 'T14:').replace('Z', '+02:00');
  t.equal((await history(`/fhir/_history?_since=${offset}`)).total, 3, 'offset times compare as instants');
  t.equal((await history('/fhir/Patient/p1/_history?_since=2030-01-01T00:00:00Z')).total, 0);
  t.equal((await history('/fhir/Patient/_history?_since=2024-03-01')).total, 4, 'a date means its start');
  const { app } = await seeded(t);
  assertOutcome(t, await app.inject({ url: '/fhir/_history?_since=yesterday' }), 400);
  assertOutcome(t, await app.inject({ url: '/fhir/_history?_count=-1' }), 400);
  assertOutcome(t, await app.inject({ url: '/fhir/_history?_count=ten' }), 400);
});

t.test('inject: _count pages with absolute links that carry the paging state', async (t) => {
  const { history } = await seeded(t);
  const first = await history('/fhir/_history?_count=2');
  t.equal(first.entry?.length, 2);
  t.equal(first.total, 5);
  const link = (b: Bundle, rel: string) => b.link?.find((l) => l.relation === rel)?.url;
  for (const l of first.link ?? []) t.match(l.url, /^http:\/\/localhost:80\/fhir\/_history\?/, `${l.relation} is absolute`);
  t.notOk(link(first, 'previous'), 'no previous on the first page');
  const next = new URL(link(first, 'next')!);
  t.equal(next.searchParams.get('_count'), '2');
  t.equal(next.searchParams.get('_offset'), '2');

  const seen = [...first.entry!.map((e) => e.response!.lastModified)];
  let page = first;
  while (link(page, 'next')) {
    const url = new URL(link(page, 'next')!);
    page = await history(url.pathname + url.search);
    seen.push(...page.entry!.map((e) => e.response!.lastModified));
  }
  t.equal(seen.length, 5, 'following next visits every version once');
  t.equal(new Set(seen).size, 5);
  t.ok(link(page, 'previous'), 'the last page links back');

  const withSince = await history('/fhir/Patient/_history?_count=1&_since=2024-01-01T00:00:00Z');
  t.equal(new URL(link(withSince, 'next')!).searchParams.get('_since'), '2024-01-01T00:00:00Z', 'next keeps the other parameters');
  const empty = await history('/fhir/_history?_count=0');
  t.equal(empty.entry?.length ?? 0, 0);
  t.equal(empty.total, 5, '_count=0 still counts');
  const far = await history('/fhir/_history?_offset=99999999999999999999');
  t.equal(far.entry?.length ?? 0, 0, 'an offset past the end is an empty page, not an error');
});

t.test('inject: history of unknown things', async (t) => {
  const { app } = await seeded(t);
  assertOutcome(t, await app.inject({ url: '/fhir/Patient/nobody/_history' }), 404);
  assertOutcome(t, await app.inject({ url: '/fhir/Nope/_history' }), 404);
  assertOutcome(t, await app.inject({ method: 'POST', url: '/fhir/Patient/p2/_history', headers: JSON_HEADERS, payload: '{}' }), 405);
});

t.test('fhir-kit-client: instance, type and system history, following next', async (t) => {
  const { client, baseUrl } = await startServer(t);
  const p = (await client.create({ resourceType: 'Patient', body: patientBody() as never })) as Patient;
  await client.update({ resourceType: 'Patient', id: p.id!, body: { ...p, active: true } as never });
  await client.create({ resourceType: 'Observation', body: observationBody(p.id!) as never });

  const instance = (await client.history({ resourceType: 'Patient', id: p.id! })) as Bundle;
  t.equal(instance.total, 2);
  t.equal(instance.entry?.[0].fullUrl, `${baseUrl}/Patient/${p.id}`);
  t.equal((await client.history({ resourceType: 'Patient' }) as Bundle).total, 2);
  const system = (await client.history({ options: {} })) as Bundle;
  t.equal(system.total, 3);

  const page1 = (await client.request('_history?_count=2')) as Bundle;
  t.equal(page1.entry?.length, 2);
  const page2 = (await client.nextPage({ bundle: page1 as never })) as unknown as Bundle;
  t.equal(page2.entry?.length, 1, 'fhir-kit-client follows the absolute next link');
  t.notOk(page2.link?.some((l) => l.relation === 'next'));
  await assertClientOutcome(t, client.history({ resourceType: 'Patient', id: 'nobody' }), 404);
});
