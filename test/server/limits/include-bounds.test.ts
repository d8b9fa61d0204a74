// _include/_revinclude fan-out is bounded (maxIncludeDepth rounds, maxIncludedResources resources) and the Bundle
// says what was cut in an OperationOutcome entry (search mode `outcome`); `_count` is clamped to maxPageSize.
import t from 'tap';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { bodyOf, startServer } from '../test-server.ts';
import { byMode, http, observationOf, putAll } from './limits-harness.ts';

const ids = (resources: Resource[]) => resources.map((r) => `${r.resourceType}/${r.id}`).sort();

t.test(':iterate stops after maxIncludeDepth rounds (default 3) and says so', async (t) => {
  const { baseUrl } = await startServer(t);
  const call = http(baseUrl);
  // Patient -> org1 -> org2 -> org3 -> org4 -> org5 (Organization.partOf)
  const orgs = [1, 2, 3, 4, 5].map((n) => ({ resourceType: 'Organization', id: `org${n}`, name: `Org ${n}`, ...(n < 5 ? { partOf: { reference: `Organization/org${n + 1}` } } : {}) }));
  const seed = await call('POST', '', putAll([...orgs.reverse(), { resourceType: 'Patient', id: 'p', managingOrganization: { reference: 'Organization/org1' } }] as Resource[]));
  t.equal(seed.statusCode, 200, seed.body.slice(0, 300));

  const res = await call('GET', '/Patient?_id=p&_include=Patient:organization&_include:iterate=Organization:partof');
  t.equal(res.statusCode, 200);
  const { include, outcome } = byMode(bodyOf<Bundle>(res));
  t.same(ids(include), ['Organization/org1', 'Organization/org2', 'Organization/org3'], 'three rounds: org1, then org2, then org3');
  t.equal(outcome.length, 1, 'one outcome entry');
  t.equal(outcome[0].issue?.[0].code, 'too-costly');
  t.match(outcome[0].issue?.[0].diagnostics, /after 3 rounds \(maxIncludeDepth\)/);

  const shallow = await call('GET', '/Patient?_id=p&_include=Patient:organization');
  t.same(byMode(bodyOf<Bundle>(shallow)).outcome, [], 'nothing cut, no outcome entry');
  // From org2 the chain ends within three rounds (org3, org4, org5): nothing is cut, so nothing is reported.
  const whole = byMode(bodyOf<Bundle>(await call('GET', '/Organization?_id=org2&_include:iterate=Organization:partof')));
  t.same(ids(whole.include), ['Organization/org3', 'Organization/org4', 'Organization/org5']);
  t.same(whole.outcome, [], 'the round after the last found nothing new: no outcome entry');
});

t.test('the worst-case include query answers, with at most maxIncludedResources included', async (t) => {
  const { baseUrl } = await startServer(t);
  const call = http(baseUrl);
  const observations = Array.from({ length: 1200 }, (_, i) => observationOf(`o${i}`, 'p'));
  t.equal((await call('POST', '', putAll([{ resourceType: 'Patient', id: 'p' } as Resource, ...observations.slice(0, 600)]))).statusCode, 200);
  t.equal((await call('POST', '', putAll(observations.slice(600)))).statusCode, 200);

  const res = await call('GET', '/Observation?_count=10000&_include=*&_revinclude=*&_include:iterate=*&_revinclude:iterate=*');
  t.equal(res.statusCode, 200, res.body.slice(0, 300));
  const { match, include, outcome } = byMode(bodyOf<Bundle>(res));
  t.equal(match.length, 1200);
  t.same(ids(include), ['Patient/p'], 'every Observation is a match, so only the patient is included');

  // Ten matches: the patient, then (iterating) its other 1190 observations - more than the default 1000.
  const fanOut = await call('GET', '/Observation?_count=10&_sort=_id&_include=*&_revinclude=*&_include:iterate=*&_revinclude:iterate=*');
  t.equal(fanOut.statusCode, 200, fanOut.body.slice(0, 300));
  const cut = byMode(bodyOf<Bundle>(fanOut));
  t.equal(cut.match.length, 10);
  t.equal(cut.include.length, 1000, 'included resources stop at the default bound');
  t.equal(cut.outcome.length, 1);
  t.match(cut.outcome[0].issue?.[0].diagnostics, /1000 included resources \(maxIncludedResources\)/);
  t.equal(cut.outcome[0].issue?.[0].severity, 'warning', 'the page itself is still good');
});

t.test('bounds come from the server settings', async (t) => {
  const { baseUrl } = await startServer(t, { settings: { maxIncludedResources: 3, maxIncludeDepth: 1, maxPageSize: 4 } });
  const call = http(baseUrl);
  const observations = Array.from({ length: 6 }, (_, i) => observationOf(`o${i}`, 'p'));
  t.equal((await call('POST', '', putAll([{ resourceType: 'Patient', id: 'p' } as Resource, ...observations]))).statusCode, 200);

  const rev = byMode(bodyOf<Bundle>(await call('GET', '/Patient?_revinclude=Observation:subject')));
  t.equal(rev.include.length, 3, 'maxIncludedResources: 3');
  t.match(rev.outcome[0]?.issue?.[0].diagnostics, /3 included resources/);

  const page = bodyOf<Bundle>(await call('GET', '/Observation?_count=100'));
  t.equal(page.entry?.length, 4, '_count=100 is clamped to maxPageSize 4');
  t.match(page.link?.find((l) => l.relation === 'self')?.url, /_count=4/);
  t.equal(page.total, 6);

  const everything = bodyOf<Bundle>(await call('GET', '/Patient/p/$everything?_count=100'));
  t.equal(everything.entry?.length, 4, '$everything pages are clamped too');
});
