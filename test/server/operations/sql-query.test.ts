// $sqlquery-run: agent SQL over materialized views, proven read-only and bounded by queries that try to escape.
import t from 'tap';
import { buildApp } from '../../../server/app.ts';

const { app } = buildApp();
t.teardown(() => app.close());

const json = (res: { body: string }) => JSON.parse(res.body);
const put = (resource: { resourceType: string; id: string }) =>
  app.inject({ method: 'PUT', url: `/fhir/${resource.resourceType}/${resource.id}`, headers: { 'content-type': 'application/fhir+json' }, payload: JSON.stringify(resource) });

const patients = { resourceType: 'ViewDefinition', name: 'patients', resource: 'Patient', select: [{ column: [{ name: 'id', path: 'getResourceKey()' }, { name: 'gender', path: 'gender' }] }] };
const a1c = {
  resourceType: 'ViewDefinition', name: 'a1c', resource: 'Observation',
  select: [{ column: [
    { name: 'id', path: 'getResourceKey()' },
    { name: 'patient', path: 'subject.getReferenceKey(Patient)' },
    { name: 'value', path: 'value.ofType(Quantity).value', type: 'decimal' },
  ] }],
};

const sql = (query: string, extra: unknown[] = []) =>
  app.inject({
    method: 'POST', url: '/fhir/$sqlquery-run', headers: { 'content-type': 'application/fhir+json' },
    payload: JSON.stringify({ resourceType: 'Parameters', parameter: [
      { name: 'query', valueString: query }, { name: 'view', resource: patients }, { name: 'view', resource: a1c }, ...extra,
    ] }),
  });

t.before(async () => {
  for (const [id, gender] of [['p1', 'female'], ['p2', 'male'], ['p3', 'female']]) t.equal((await put({ resourceType: 'Patient', id, gender } as never)).statusCode, 201);
  const values: [string, string, number][] = [['o1', 'p1', 9.5], ['o2', 'p1', 7.0], ['o3', 'p2', 10.1], ['o4', 'p3', 6.1]];
  for (const [id, patient, value] of values) {
    const res = await put({ resourceType: 'Observation', id, status: 'final', code: { text: 'A1c' }, subject: { reference: `Patient/${patient}` }, valueQuantity: { value } } as never);
    t.equal(res.statusCode, 201);
  }
});

const COHORT = `SELECT p.gender, count(DISTINCT p.id) AS n FROM patients p JOIN a1c o ON o.patient = p.id
                WHERE o.value > 9 GROUP BY p.gender ORDER BY p.gender`;

t.test('a cohort query over two views (join, filter, group)', async (t) => {
  const res = await sql(COHORT);
  t.equal(res.statusCode, 200, res.body);
  t.same(json(res), [{ gender: 'female', n: 1 }, { gender: 'male', n: 1 }]);
});

t.test('csv output', async (t) => {
  const res = await sql('SELECT id FROM patients ORDER BY id', [{ name: '_format', valueCode: 'csv' }]);
  t.match(res.headers['content-type'], /^text\/csv/);
  t.equal(res.body, 'id\r\np1\r\np2\r\np3\r\n');
});

t.test('escapes are refused with a 400 OperationOutcome and change nothing', async (t) => {
  const attempts = [
    'INSERT INTO patients VALUES (\'evil\', \'male\')',
    'DELETE FROM patients',
    'DROP TABLE patients',
    'UPDATE a1c SET value = 0',
    'CREATE TABLE x (a)',
    'ATTACH DATABASE \'/tmp/evil.db\' AS evil',
    'PRAGMA table_info(patients)',
    'SELECT * FROM pragma_table_info(\'patients\')',
    'SELECT 1; DELETE FROM patients',
    'SELECT * FROM patients; SELECT 1',
    'WITH x AS (SELECT 1) DELETE FROM patients',
    'SELEC nonsense',
    'SELECT * FROM resource_current',
  ];
  for (const query of attempts) {
    const res = await sql(query);
    t.equal(res.statusCode, 400, query);
    t.equal(json(res).resourceType, 'OperationOutcome', `${query}: OperationOutcome`);
  }
  t.same(json(await sql('SELECT count(*) AS n FROM patients')), [{ n: 3 }], 'the views are intact');
  const read = await app.inject({ method: 'GET', url: '/fhir/Patient/p1' });
  t.equal(read.statusCode, 200, 'the FHIR data is intact');
});

t.test('a runaway recursive CTE is stopped by the time limit while the server keeps answering', async (t) => {
  const order: string[] = [];
  const runaway = sql('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c', [{ name: '_timeout', valueInteger: 1500 }])
    .then((res) => { order.push('runaway'); return res; });
  const meanwhile = await app.inject({ method: 'GET', url: '/fhir/Patient/p2' });
  order.push('read');
  t.equal(meanwhile.statusCode, 200, 'a read during the runaway query is served');
  const res = await runaway;
  t.same(order, ['read', 'runaway'], 'the read did not wait for the query');
  t.equal(res.statusCode, 422);
  t.equal(json(res).issue[0].code, 'too-costly');
  t.same(json(await sql('SELECT count(*) AS n FROM a1c')), [{ n: 4 }], 'queries work again afterwards');
});

t.test('a result over the row limit is refused, not silently cut', async (t) => {
  const huge = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 1000000) SELECT x FROM c';
  const res = await sql(huge, [{ name: '_limit', valueInteger: 100 }]);
  t.equal(res.statusCode, 422);
  t.match(json(res).issue[0].diagnostics, /more than 100 rows/);
  const ok = await sql('SELECT id FROM patients', [{ name: '_limit', valueInteger: 3 }]);
  t.equal(ok.statusCode, 200, 'exactly the limit is fine');
});

t.test('parameter errors', async (t) => {
  const noQuery = await app.inject({ method: 'POST', url: '/fhir/$sqlquery-run', headers: { 'content-type': 'application/fhir+json' }, payload: JSON.stringify({ resourceType: 'Parameters', parameter: [{ name: 'view', resource: patients }] }) });
  t.equal(noQuery.statusCode, 400);
  const noViews = await app.inject({ method: 'POST', url: '/fhir/$sqlquery-run', headers: { 'content-type': 'application/fhir+json' }, payload: JSON.stringify({ resourceType: 'Parameters', parameter: [{ name: 'query', valueString: 'SELECT 1' }] }) });
  t.equal(noViews.statusCode, 400);
  t.equal((await sql('SELECT 1', [{ name: '_timeout', valueInteger: 999999 }])).statusCode, 400);
  t.equal((await app.inject({ method: 'GET', url: '/fhir/$sqlquery-run?query=SELECT%201' })).statusCode, 405, 'POST only');
});
