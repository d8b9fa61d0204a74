// The virtual clock: every server-assigned time in a session comes from the session's `now`.
import t from 'tap';
import { startGym } from './gym-harness.ts';

t.test('meta.lastUpdated, history and Bundle timestamps follow each session\'s clock', async (t) => {
  const gym = await startGym(t);
  const a = await gym.createSession({ now: '2023-11-13T10:15:00+00:00' });
  const b = await gym.createSession({ now: '2031-05-06T07:08:09-05:00' });
  const pa = await gym.json('POST', `/fhir/_session/${a.id}/Patient`, { resourceType: 'Patient', meta: { lastUpdated: '1999-01-01T00:00:00Z' } });
  const pb = await gym.json('POST', `/fhir/_session/${b.id}/Patient`, { resourceType: 'Patient' });
  t.ok(pa.body.meta.lastUpdated.startsWith('2023-11-13T10:15:00.'), pa.body.meta.lastUpdated);
  t.ok(pb.body.meta.lastUpdated.startsWith('2031-05-06T12:08:09.'), pb.body.meta.lastUpdated);
  t.equal(pa.headers['last-modified'], 'Mon, 13 Nov 2023 10:15:00 GMT');
  const history = await gym.json('GET', `/fhir/_session/${a.id}/_history`);
  t.ok(history.body.timestamp.startsWith('2023-11-13T10:15:00.'), 'Bundle.timestamp');
  const second = await gym.json('POST', `/fhir/_session/${a.id}/Patient`, { resourceType: 'Patient' });
  t.ok(second.body.meta.lastUpdated > pa.body.meta.lastUpdated, 'the clock moves forward within a session');
  const search = await gym.json('GET', `/fhir/_session/${b.id}/Patient`);
  if (search.status === 200 && search.body.timestamp) t.ok(search.body.timestamp.startsWith('2031-05-06'), 'searchset timestamp');
  const submitted = await gym.json('POST', `/gym/sessions/${b.id}/submit`, { answer: 'done' }, { 'content-type': 'application/json' });
  t.ok(submitted.body.submission.submittedAt.startsWith('2031-05-06T12:08:09.'));
  const first = (await gym.json('GET', `/gym/sessions/${a.id}/log`)).body.entries[0];
  t.ok(first.time.startsWith('2023-11-13T10:15:00.'));
});

t.test('without a now, the session starts at creation wall time and still runs its own clock', async (t) => {
  const gym = await startGym(t, { gym: { wallTime: () => Date.parse('2040-02-02T02:02:02Z') } });
  const s = await gym.createSession();
  t.equal(s.now, '2040-02-02T02:02:02.000Z');
  const p = await gym.json('POST', `/fhir/_session/${s.id}/Patient`, { resourceType: 'Patient' });
  t.ok(p.body.meta.lastUpdated.startsWith('2040-02-02T02:02:02.'));
});
