// _sort (FHIR R4 3.1.1.5.3), _count and paging links (3.1.0.8.3 / 3.1.1.5.5), _total, _summary, _elements.
import t from 'tap';
import { patient, searchApp } from './fixtures.ts';

const data = ['d', 'a', 'c', 'b', 'e'].map((id, i) =>
  patient(id, { birthDate: ['1990-01-01', '1980-01-01', '1990-01-01', '1970-01-01', '2000-01-01'][i], name: [{ family: ['Zed', 'Alpha', 'Mid', 'Beta', 'Mid'][i] }], text: { status: 'generated', div: '<div xmlns="http://www.w3.org/1999/xhtml">hello</div>' } }));

t.test('_sort: multiple keys, descending, _id; the default order is deterministic', async (t) => {
  const { ids } = await searchApp(t, data);
  t.same(await ids('Patient'), ['a', 'b', 'c', 'd', 'e'], 'default: by id');
  t.same(await ids('Patient?_sort=birthdate'), ['b', 'a', 'c', 'd', 'e']);
  t.same(await ids('Patient?_sort=-birthdate'), ['e', 'c', 'd', 'a', 'b'], 'ties broken by id');
  t.same(await ids('Patient?_sort=birthdate,-_id'), ['b', 'a', 'd', 'c', 'e']);
  t.same(await ids('Patient?_sort=family,-birthdate'), ['a', 'b', 'e', 'c', 'd']);
  t.same(await ids('Patient?_sort=-_lastUpdated'), ['e', 'b', 'c', 'a', 'd'], 'last written first');
});

t.test('paging: _count, absolute next/previous links carrying all state as query parameters', async (t) => {
  const { get, ids } = await searchApp(t, data);
  const first = await get('Patient?_sort=birthdate&_count=2');
  t.equal(first.body.total, 5);
  t.same(first.body.entry!.map((e) => e.resource!.id), ['b', 'a']);
  const next = first.body.link!.find((l) => l.relation === 'next')!.url!;
  t.match(next, /^http:\/\/localhost:80\/fhir\/Patient\?/);
  const url = new URL(next);
  t.equal(url.searchParams.get('_sort'), 'birthdate', 'the criteria travel with the link');
  t.same(await ids(`Patient${url.search}`), ['c', 'd']);
  const last = await get(`Patient?_sort=birthdate&_count=2&_offset=4`);
  t.same(last.body.entry!.map((e) => e.resource!.id), ['e']);
  t.notOk(last.body.link!.find((l) => l.relation === 'next'), 'no next on the last page');
  t.ok(last.body.link!.find((l) => l.relation === 'previous'));
  const big = await get('Patient?_count=5000');
  t.equal(big.body.entry!.length, 5, '_count up to 10000 in one page');
});

t.test('_count=0 and _summary=count give only the total; _total=none omits it', async (t) => {
  const { get } = await searchApp(t, data);
  for (const url of ['Patient?_count=0', 'Patient?_summary=count', 'Patient?_summary=count&_count=2']) {
    const { body } = await get(url);
    t.equal(body.total, 5, url);
    t.notOk(body.entry, url);
    // A count-only answer has no pages: a client following next links would only get the same total again.
    t.same(body.link!.map((l) => l.relation), ['self'], `${url}: only a self link`);
  }
  const none = await get('Patient?_total=none');
  t.equal(none.body.total, undefined);
  t.equal(none.body.entry!.length, 5);
});

t.test('_summary and _elements subset the resources and tag them SUBSETTED', async (t) => {
  const { get } = await searchApp(t, data);
  const summary = await get('Patient?_id=a&_summary=true');
  const r = summary.body.entry![0].resource as unknown as Record<string, unknown>;
  t.ok(r.name && r.birthDate, 'summary elements kept');
  t.notOk(r.text, 'text is not a summary element');
  t.match((r.meta as { tag: { code: string }[] }).tag, [{ code: 'SUBSETTED' }]);
  const data2 = await get('Patient?_id=a&_summary=data');
  t.notOk((data2.body.entry![0].resource as unknown as Record<string, unknown>).text);
  const text = await get('Patient?_id=a&_summary=text');
  const tr = text.body.entry![0].resource as unknown as Record<string, unknown>;
  t.ok(tr.text);
  t.notOk(tr.name);
  const elements = await get('Patient?_id=a&_elements=birthDate');
  const er = elements.body.entry![0].resource as unknown as Record<string, unknown>;
  t.same(Object.keys(er).sort(), ['birthDate', 'id', 'meta', 'resourceType']);
  t.equal((await get('Patient?_summary=maybe')).status, 400);
});
