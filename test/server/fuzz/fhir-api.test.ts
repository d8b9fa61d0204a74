// Property: for any method × path × query × body under a FHIR base (the default one, a live session's, a made-up
// session's), the server answers before the client gives up, never with a 5xx, and every error body is a JSON
// OperationOutcome. Requests go over a real socket with fetch; a tiny chart (two Patients, an Observation) is
// stored first so reads, includes and chains have something to find.
import t from 'tap';
import fc from 'fast-check';
import { fhirRequest } from './arbitraries.ts';
import { checkProperty, defect, send, startFuzzServer } from './fuzz-client.ts';

t.test('any request under a FHIR base: no 5xx, no hang, errors are OperationOutcomes', async (t) => {
  const server = await startFuzzServer(t);
  const created = await send(server.root, { method: 'POST', path: '/gym/sessions', body: {}, contentType: 'application/json' });
  t.equal(created.status, 201, 'a session to aim at');
  const session = (JSON.parse(created.body) as { id: string }).id;
  for (const base of ['/fhir', `/fhir/_session/${session}`]) {
    for (const [path, resource] of [
      ['/Patient/p2', { resourceType: 'Patient', id: 'p2', gender: 'male', birthDate: '1970-01-01' }],
      ['/Patient/p1', { resourceType: 'Patient', id: 'p1', gender: 'female', name: [{ family: 'Fuzz' }], link: [{ other: { reference: 'Patient/p2' }, type: 'seealso' }] }],
      ['/Observation/o1', { resourceType: 'Observation', id: 'o1', status: 'final', code: { coding: [{ system: 'http://loinc.org', code: '2823-3' }] }, subject: { reference: 'Patient/p1' }, valueQuantity: { value: 4.1, unit: 'mmol/L' } }],
    ] as const) {
      const res = await send(server.root, { method: 'PUT', path: base + path, body: resource });
      t.ok(res.status === 200 || res.status === 201, `${base}${path} stored (${res.status})`);
    }
  }
  const base = fc.constantFrom('/fhir', '/fhir', '/fhir', '/fhir', `/fhir/_session/${session}`, `/fhir/_session/${session}`, `/fhir/_session/${session}`, '/fhir/_session/AAAAAAAAAAAAAAAAAAAAAAAA', '/fhir/_session/..', '/fhir/_SESSION/x');
  await checkProperty(t, 'FHIR API', fc.tuple(base, fhirRequest), async ([b, r]) => {
    const problem = await defect(server.root, { ...r, path: b + r.path });
    return problem && `${problem}\n  request: ${r.method} ${(b + r.path).slice(0, 300)} ${JSON.stringify(r.body)?.slice(0, 600)}`;
  }, 600);
});
