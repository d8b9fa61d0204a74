// A query value may itself hold a '?': the request target is split at its first one only (RFC 3986 3.4), so an
// implicit value set URL (`urn:x?fhir_vs`, `http://loinc.org?fhir_vs`) reaches the search unencoded.
import t from 'tap';
import { splitTarget } from '../../../server/fhir-request.ts';
import { injectApp } from '../test-server.ts';

t.test('splitTarget', async (t) => {
  t.same(splitTarget('/fhir/Observation?code:in=http://loinc.org?fhir_vs&_count=1'), ['/fhir/Observation', 'code:in=http://loinc.org?fhir_vs&_count=1']);
  t.same(splitTarget('/fhir/Patient'), ['/fhir/Patient', '']);
});

t.test('an unencoded implicit value set URL in a search', async (t) => {
  const { app } = injectApp(t);
  const res = await app.inject({ method: 'GET', url: '/fhir/Observation?code:in=http://loinc.org?fhir_vs&_count=1&_summary=count' });
  t.equal(res.statusCode, 200, res.body.slice(0, 200));
});
