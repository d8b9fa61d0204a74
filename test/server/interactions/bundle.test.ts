// Paging parameters shared by search and history: checked, clamped, and never a 5xx however large.
import t from 'tap';
import { pageWindow } from '../../../server/interactions/bundle.ts';
import { buildApp } from '../../../server/app.ts';

t.test('pageWindow clamps _count to the maximum and keeps huge _offset an exact integer', async (t) => {
  t.same(pageWindow([], 50, 10000), { count: 50, offset: 0 });
  t.same(pageWindow([['_count', '20000'], ['_offset', '7']], 50, 10000), { count: 10000, offset: 7 });
  t.equal(pageWindow([['_offset', '99999999999999999999']], 50, 10000).offset, Number.MAX_SAFE_INTEGER);
  t.throws(() => pageWindow([['_offset', '-1']], 50, 10000), /non-negative integer/);
});

t.test('a search or history page far beyond the end is empty, not an error', async (t) => {
  const { app } = buildApp();
  t.teardown(() => app.close());
  await app.inject({ method: 'POST', url: '/fhir/Patient', headers: { 'content-type': 'application/fhir+json' }, payload: { resourceType: 'Patient' } });
  for (const url of ['/fhir/Patient?_offset=99999999999999999999', '/fhir/Patient?_offset=9223372036854775807', '/fhir/_history?_offset=99999999999999999999']) {
    const res = await app.inject({ method: 'GET', url });
    t.equal(res.statusCode, 200, url);
    const bundle = JSON.parse(res.body);
    t.equal(bundle.entry?.length ?? 0, 0, `${url}: no entries`);
    t.equal(bundle.total, 1, `${url}: the total still counts the match`);
  }
});
