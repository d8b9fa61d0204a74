// Inputs an independent probe (issue 14) found answered with a 5xx or stored as non-R4 shapes: each is now a 400
// OperationOutcome that names the element or the limit, and nothing is written.
import t from 'tap';
import { assertOutcome, injectApp, JSON_HEADERS, patientBody } from '../test-server.ts';

const post = (url: string, payload: unknown) => ({ method: 'POST' as const, url, headers: JSON_HEADERS, payload: JSON.stringify(payload) });

t.test('complex-typed elements must be objects (the official schema leaves "type": "object" off them)', async (t) => {
  const { app } = injectApp(t);
  await app.inject({ method: 'PUT', url: '/fhir/Patient/s1', headers: JSON_HEADERS, payload: JSON.stringify(patientBody({ id: 's1' })) });
  const shapes: [string, Record<string, unknown>, RegExp][] = [
    ['code as a string', { resourceType: 'Observation', status: 'final', code: 'abc', subject: { reference: 'Patient/s1' } }, /Observation\.code: expected an object/],
    ['subject as a string', { resourceType: 'Observation', status: 'final', code: { text: 'x' }, subject: 'Patient/s1' }, /Observation\.subject: expected an object/],
    ['valueQuantity as a number', { resourceType: 'Observation', status: 'final', code: { text: 'x' }, valueQuantity: 5 }, /Observation\.valueQuantity: expected an object/],
    ['component code as a string', { resourceType: 'Observation', status: 'final', code: { text: 'x' }, component: [{ code: 'abc' }] }, /Observation\.component\[0\]\.code: expected an object/],
    ['dosage route as a string', { resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: 'Patient/s1' }, medicationCodeableConcept: { text: 'x' }, dosageInstruction: [{ route: 'IV' }] }, /MedicationRequest\.dosageInstruction\[0\]\.route: expected an object/],
  ];
  for (const [what, body, message] of shapes) {
    const res = await app.inject(post(`/fhir/${body.resourceType}`, body));
    const outcome = assertOutcome(t, res, 400);
    t.match(outcome.issue?.map((i) => i.diagnostics).join('\n'), message, what);
  }
  const stored = await app.inject({ method: 'GET', url: '/fhir/Observation?_summary=count' });
  t.equal(stored.json().total, 0, 'nothing was stored');
  const valid = await app.inject(post('/fhir/Observation', { resourceType: 'Observation', status: 'final', code: { text: 'x' }, subject: { reference: 'Patient/s1' }, valueQuantity: { value: 5 } }));
  t.equal(valid.statusCode, 201, 'the same resource with objects is stored');
});

t.test('searches: an OR list or a chain past its bound is a 400, below it an answer', async (t) => {
  const { app } = injectApp(t);
  const many = Array.from({ length: 600 }, (_, i) => `v${i}`).join(',');
  t.match(assertOutcome(t, await app.inject({ method: 'GET', url: `/fhir/Patient?gender=${many}` }), 400).issue?.[0]?.diagnostics, /600 comma-separated values; at most 100/);
  t.equal((await app.inject({ method: 'GET', url: `/fhir/Patient?gender=${Array.from({ length: 100 }, (_, i) => `v${i}`).join(',')}` })).statusCode, 200);
  const chain = (links: number) => `/fhir/Observation?subject:Patient.${Array.from({ length: links - 1 }, () => 'link:Patient.').join('')}name=x`;
  t.match(assertOutcome(t, await app.inject({ method: 'GET', url: chain(11) }), 400).issue?.[0]?.diagnostics, /11 chained links; at most 4/);
  t.equal((await app.inject({ method: 'GET', url: chain(4) })).statusCode, 200, 'four links are searched');
  const has = '/fhir/Patient?' + '_has:Observation:subject:'.repeat(6) + 'code=x';
  t.equal(assertOutcome(t, await app.inject({ method: 'GET', url: has }), 400).resourceType, 'OperationOutcome', 'nested _has counts as links');
});

t.test('a null entry in a transaction or batch is a 400 naming the entry', async (t) => {
  const { app } = injectApp(t);
  for (const type of ['transaction', 'batch']) {
    const res = await app.inject(post('/fhir', { resourceType: 'Bundle', type, entry: [null] }));
    t.match(assertOutcome(t, res, 400).issue?.[0]?.diagnostics, /Bundle\.entry\[0\]/, type);
  }
});

t.test('operations: a malformed Parameters body or inline ValueSet is a 400, $validate still reports on a bad resource', async (t) => {
  const { app } = injectApp(t);
  t.match(assertOutcome(t, await app.inject(post('/fhir/Patient/$validate', { resourceType: 'Parameters', parameter: 'x' })), 400).issue?.[0]?.diagnostics, /Parameters\.parameter: expected an array/);
  const inline = { resourceType: 'Parameters', parameter: [{ name: 'valueSet', resource: { resourceType: 'ValueSet', status: 'active', compose: { include: [{ system: 'http://loinc.org', concept: 'abc' }] } } }] };
  t.match(assertOutcome(t, await app.inject(post('/fhir/ValueSet/$expand', inline)), 400).issue?.[0]?.diagnostics, /ValueSet\.compose\.include\[0\]\.concept: expected an array/);
  const report = await app.inject(post('/fhir/Patient/$validate', { resourceType: 'Parameters', parameter: [{ name: 'resource', resource: { resourceType: 'Patient', gender: 42 } }] }));
  t.equal(report.statusCode, 200, 'an invalid resource inside $validate is reported, not refused');
  t.match(report.json().issue?.[0]?.expression, ['Patient.gender']);
});
