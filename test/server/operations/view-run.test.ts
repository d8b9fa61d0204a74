// ViewDefinition/$run over the sandbox's stored data: parameters, formats and errors (SQL on FHIR v2 "$run").
import t from 'tap';
import { buildApp } from '../../../server/app.ts';

const { app } = buildApp();
t.teardown(() => app.close());

const json = (res: { body: string }) => JSON.parse(res.body);
const post = (url: string, body: unknown) =>
  app.inject({ method: 'POST', url, headers: { 'content-type': 'application/fhir+json' }, payload: JSON.stringify(body) });
const run = (parameter: unknown[], url = '/fhir/ViewDefinition/$run') => post(url, { resourceType: 'Parameters', parameter });

const obsView = {
  resourceType: 'ViewDefinition',
  name: 'obs',
  resource: 'Observation',
  select: [{
    column: [
      { name: 'id', path: 'getResourceKey()' },
      { name: 'patient', path: 'subject.getReferenceKey(Patient)' },
      { name: 'value', path: 'value.ofType(Quantity).value', type: 'decimal' },
      { name: 'note', path: 'note.text.first()' },
    ],
  }],
};

t.before(async () => {
  for (const id of ['p1', 'p2']) {
    const res = await app.inject({ method: 'PUT', url: `/fhir/Patient/${id}`, headers: { 'content-type': 'application/fhir+json' }, payload: JSON.stringify({ resourceType: 'Patient', id }) });
    t.equal(res.statusCode, 201, `Patient/${id} stored`);
  }
  const obs = (id: string, patient: string, value: number, note: string) => ({
    resourceType: 'Observation', id, status: 'final', code: { text: 'a1c' }, subject: { reference: `Patient/${patient}` },
    valueQuantity: { value, unit: '%' }, note: [{ text: note }],
  });
  for (const o of [obs('o1', 'p1', 7.1, 'plain'), obs('o2', 'p1', 9.4, 'has, comma and "quote"'), obs('o3', 'p2', 6.2, 'x')]) {
    const res = await app.inject({ method: 'PUT', url: `/fhir/Observation/${o.id}`, headers: { 'content-type': 'application/fhir+json' }, payload: JSON.stringify(o) });
    t.equal(res.statusCode, 201, `Observation/${o.id} stored`);
  }
});

t.test('runs over the stored data when no resources are inline', async (t) => {
  const res = await run([{ name: 'viewResource', resource: obsView }]);
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^application\/json/);
  const rows = json(res).sort((a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id));
  t.same(rows.map((r: { id: string; patient: string; value: number }) => [r.id, r.patient, r.value]), [['o1', 'p1', 7.1], ['o2', 'p1', 9.4], ['o3', 'p2', 6.2]]);
});

t.test('inline resources replace the stored data', async (t) => {
  const res = await run([
    { name: 'viewResource', resource: obsView },
    { name: 'resource', resource: { resourceType: 'Observation', id: 'inline', status: 'final', code: {}, subject: { reference: 'Patient/zz' } } },
  ]);
  t.same(json(res), [{ id: 'inline', patient: 'zz', value: null, note: null }]);
});

t.test('patient restricts to that patient\'s resources', async (t) => {
  const res = await run([{ name: 'viewResource', resource: obsView }, { name: 'patient', valueReference: { reference: 'Patient/p2' } }]);
  t.same(json(res).map((r: { id: string }) => r.id), ['o3']);
});

t.test('group restricts to the compartments of its active Patient members', async (t) => {
  const group = { resourceType: 'Group', id: 'cohort', type: 'person', actual: true, member: [{ entity: { reference: 'Patient/p2' } }, { entity: { reference: 'Patient/p1' }, inactive: true }] };
  const stored = await app.inject({ method: 'PUT', url: '/fhir/Group/cohort', headers: { 'content-type': 'application/fhir+json' }, payload: JSON.stringify(group) });
  t.equal(stored.statusCode, 201);
  const res = await run([{ name: 'viewResource', resource: obsView }, { name: 'group', valueReference: { reference: 'Group/cohort' } }]);
  t.equal(res.statusCode, 200);
  t.same(json(res).map((r: { id: string }) => r.id), ['o3'], 'p1 is an inactive member');
});

t.test('_limit caps the rows', async (t) => {
  const res = await run([{ name: 'viewResource', resource: obsView }, { name: '_limit', valueInteger: 2 }]);
  t.equal(json(res).length, 2);
});

t.test('_since keeps resources updated at or after the instant', async (t) => {
  const future = await run([{ name: 'viewResource', resource: obsView }, { name: '_since', valueInstant: '2999-01-01T00:00:00Z' }]);
  t.same(json(future), []);
  const past = await run([{ name: 'viewResource', resource: obsView }, { name: '_since', valueInstant: '2000-01-01T00:00:00Z' }]);
  t.equal(json(past).length, 3);
});

t.test('csv: header row, RFC 4180 quoting, null as an empty field', async (t) => {
  const res = await run([{ name: 'viewResource', resource: obsView }, { name: '_format', valueCode: 'csv' }, { name: 'patient', valueString: 'Patient/p1' }]);
  t.match(res.headers['content-type'], /^text\/csv/);
  const lines = res.body.trimEnd().split('\r\n').sort();
  t.same(lines, ['id,patient,value,note', 'o1,p1,7.1,plain', 'o2,p1,9.4,"has, comma and ""quote"""'].sort());
});

t.test('ndjson: one row object per line; alias $viewdefinition-run', async (t) => {
  const res = await run([{ name: 'viewResource', resource: obsView }, { name: '_format', valueString: 'ndjson' }], '/fhir/ViewDefinition/$viewdefinition-run');
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /ndjson/);
  const lines = res.body.trimEnd().split('\n').map((l) => JSON.parse(l));
  t.equal(lines.length, 3);
});

t.test('_format in the query string of a GET is accepted for $run', async (t) => {
  const res = await app.inject({ method: 'GET', url: '/fhir/ViewDefinition/nope/$run?_format=csv' });
  t.equal(res.statusCode, 404, 'not a 406: the unknown stored view is what fails');
  t.equal(json(res).resourceType, 'OperationOutcome');
});

t.test('errors are OperationOutcomes with 4xx', async (t) => {
  const cases: [string, unknown[], number][] = [
    ['no view', [], 400],
    ['view without resource', [{ name: 'viewResource', resource: { select: [{ column: [{ name: 'id', path: 'id' }] }] } }], 400],
    ['bad FHIRPath', [{ name: 'viewResource', resource: { resource: 'Patient', select: [{ column: [{ name: 'id', path: 'id.(' }] }] } }], 400],
    ['unknown viewReference', [{ name: 'viewReference', valueReference: { reference: 'ViewDefinition/missing' } }], 404],
    ['unknown group', [{ name: 'viewResource', resource: obsView }, { name: 'group', valueReference: { reference: 'Group/g' } }], 404],
    ['group that is not a Group', [{ name: 'viewResource', resource: obsView }, { name: 'group', valueReference: { reference: 'Patient/p1' } }], 400],
    ['bad _format', [{ name: 'viewResource', resource: obsView }, { name: '_format', valueCode: 'xml' }], 400],
    ['bad _limit', [{ name: 'viewResource', resource: obsView }, { name: '_limit', valueInteger: 0 }], 400],
    ['collection column with many values', [{ name: 'viewResource', resource: { resource: 'Patient', select: [{ column: [{ name: 'x', path: 'id | id.length().toString()' }] }] } }], 422],
  ];
  for (const [name, parameter, status] of cases) {
    const res = await run(parameter);
    t.equal(res.statusCode, status, name);
    t.equal(json(res).resourceType, 'OperationOutcome', `${name}: OperationOutcome`);
  }
});

t.test('operations on unknown types still 404; $run is not offered on R4 types', async (t) => {
  t.equal((await run([], '/fhir/NotAType/$run')).statusCode, 404);
  t.equal((await run([{ name: 'viewResource', resource: obsView }], '/fhir/Patient/$run')).statusCode, 404);
});
