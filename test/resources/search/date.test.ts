// Date search (FHIR R4 3.1.1.4.6 and the prefix table of 3.1.1.4.1): values stand for ranges by precision;
// every prefix; Period; time zones (values without one are UTC).
import t from 'tap';
import { observation, patient, searchApp } from './fixtures.ts';

const data = [
  // 23:30 in New York on Jan 1 is 04:30 UTC on Jan 2.
  observation('ny-late', { effectiveDateTime: '2023-01-01T23:30:00-05:00' }),
  observation('utc-noon', { effectiveDateTime: '2023-01-01T12:00:00Z' }),
  observation('day', { effectiveDateTime: '2023-01-03' }),
  observation('month', { effectiveDateTime: '2023-02' }),
  observation('period', { effectivePeriod: { start: '2023-01-01T00:00:00Z', end: '2023-01-05T00:00:00Z' } }),
  observation('open', { effectivePeriod: { start: '2023-03-01' } }),
  observation('none', {}),
];

t.test('eq: the search range must contain the value range; time zones move values across midnight', async (t) => {
  const { idSet } = await searchApp(t, data);
  t.same(await idSet('Observation?date=2023-01-01'), ['utc-noon'], 'ny-late is on Jan 2 in UTC; the period spills over');
  t.same(await idSet('Observation?date=2023-01-02'), ['ny-late']);
  t.same(await idSet('Observation?date=eq2023-01'), ['day', 'ny-late', 'period', 'utc-noon']);
  t.same(await idSet('Observation?date=2023-02-10'), [], 'a month value is not inside one day');
  t.same(await idSet('Observation?date=2023-01-01T12:00:00Z'), ['utc-noon']);
  t.same(await idSet('Observation?date=2023-01-01T07:00:00-05:00'), ['utc-noon'], 'offset in the search value');
  // An unencoded '+' arrives as a space; it must still be read as a positive offset.
  t.same(await idSet('Observation?date=2023-01-01T13:00:00+01:00'), ['utc-noon']);
  t.same(await idSet('Observation?date=2023-01-01T13:00:00%2B01:00'), ['utc-noon']);
});

t.test('every comparator', async (t) => {
  const { idSet } = await searchApp(t, data);
  const all = ['day', 'month', 'ny-late', 'open', 'period', 'utc-noon'];
  t.same(await idSet('Observation?date=ne2023-01-01'), all.filter((x) => x !== 'utc-noon'));
  t.same(await idSet('Observation?date=gt2023-01-02'), ['day', 'month', 'open', 'period'], 'ends after the day');
  t.same(await idSet('Observation?date=lt2023-01-02'), ['period', 'utc-noon'], 'starts before the day');
  t.same(await idSet('Observation?date=ge2023-01-02'), ['day', 'month', 'ny-late', 'open', 'period']);
  t.same(await idSet('Observation?date=le2023-01-02'), ['ny-late', 'period', 'utc-noon']);
  t.same(await idSet('Observation?date=sa2023-01-02'), ['day', 'month', 'open'], 'starts after: the period started before');
  t.same(await idSet('Observation?date=eb2023-01-02'), ['utc-noon'], 'ends before: the period ends after');
  t.ok((await idSet('Observation?date=ap2023-02-15')).includes('month'), 'approximately: within 10% of the gap to now');
  t.same(await idSet('Observation?date=ap1990-01-01'), [], 'not approximately');
  t.same(await idSet('Observation?date=ge2023-01-02&date=lt2023-01-04'), ['day', 'ny-late', 'period'], 'AND makes a window');
});

t.test('an open-ended period extends to infinity', async (t) => {
  const { idSet } = await searchApp(t, data);
  t.ok((await idSet('Observation?date=gt2090-01-01')).includes('open'));
});

t.test('malformed dates and prefixes are a 400 naming the parameter', async (t) => {
  const { get } = await searchApp(t, [patient('p', { birthDate: '1970-01-01' })]);
  for (const url of ['Patient?birthdate=1970-13-01', 'Patient?birthdate=yesterday', 'Patient?birthdate=xx1970', 'Patient?_lastUpdated=abc']) {
    const { status, body } = await get(url);
    t.equal(status, 400, url);
    t.ok(body.issue?.[0].expression?.length, 'names the parameter');
  }
});

t.test('_lastUpdated', async (t) => {
  const { idSet } = await searchApp(t, [patient('p')]);
  t.same(await idSet('Patient?_lastUpdated=gt2000-01-01'), ['p']);
  t.same(await idSet('Patient?_lastUpdated=lt2000-01-01'), []);
});
