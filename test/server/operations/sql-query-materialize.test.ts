// $sqlquery-run over a population too big to read in one go: the views are built page by page while the server
// keeps serving other requests, the time limit covers the building, and `patient` reads only that patient's data.
import t from 'tap';
import type { Resource } from '@medplum/fhirtypes';
import { buildApp } from '../../../server/app.ts';
import { Repository } from '../../../resources/storage/repository.ts';
import { BASE_LAYER, makeSandbox } from '../../../resources/storage/sandbox.ts';

const PATIENTS = 400;
const OBS_PER_PATIENT = 20; // 8,000 Observations: 16 pages of 500

const { app, context } = buildApp();
t.teardown(() => app.close());

const base = new Repository(context.store, makeSandbox(BASE_LAYER));
context.store.transaction(() => {
  for (let p = 0; p < PATIENTS; p++) {
    base.write({ resourceType: 'Patient', id: `pat-${p}`, gender: p % 2 ? 'female' : 'male' } as Resource & { id: string });
    for (let i = 0; i < OBS_PER_PATIENT; i++) {
      base.write({
        resourceType: 'Observation', id: `obs-${p}-${i}`, status: 'final', code: { coding: [{ system: 'http://loinc.org', code: i % 2 ? '4548-4' : '2823-3' }] },
        subject: { reference: `Patient/pat-${p}` }, valueQuantity: { value: 5 + (i % 7) },
      } as Resource & { id: string });
    }
  }
});

const json = (res: { body: string }) => JSON.parse(res.body);
const observations = {
  resourceType: 'ViewDefinition', name: 'obs', resource: 'Observation',
  where: [{ path: "code.coding.where(system = 'http://loinc.org' and code = '4548-4').exists()" }],
  select: [{ column: [{ name: 'patient', path: 'subject.getReferenceKey(Patient)' }, { name: 'value', path: 'value.ofType(Quantity).value' }] }],
};
const patients = { resourceType: 'ViewDefinition', name: 'patients', resource: 'Patient', select: [{ column: [{ name: 'id', path: 'getResourceKey()' }, { name: 'gender', path: 'gender' }] }] };
const sql = (query: string, extra: unknown[] = []) =>
  app.inject({
    method: 'POST', url: '/fhir/$sqlquery-run', headers: { 'content-type': 'application/fhir+json' },
    payload: JSON.stringify({ resourceType: 'Parameters', parameter: [
      // Observations first: the Patient table is built only after 16 pages of them.
      { name: 'query', valueString: query }, { name: 'view', resource: observations }, { name: 'view', resource: patients }, ...extra,
    ] }),
  });

t.test('requests issued while the views build are served before the query answers, and a write lands in a table built after it', async (t) => {
  const order: string[] = [];
  const query = sql("SELECT (SELECT count(*) FROM obs) AS obs, (SELECT count(*) FROM patients) AS patients, (SELECT count(*) FROM patients WHERE id = 'late') AS late",
    [{ name: '_timeout', valueInteger: 10000 }]).then((res) => { order.push('query'); return res; });
  const read = app.inject({ method: 'GET', url: '/fhir/Patient/pat-7' }).then((res) => { order.push('read'); return res; });
  const write = app.inject({ method: 'PUT', url: '/fhir/Patient/late', headers: { 'content-type': 'application/fhir+json' }, payload: JSON.stringify({ resourceType: 'Patient', id: 'late', gender: 'other' }) })
    .then((res) => { order.push('write'); return res; });
  const [q, r, w] = await Promise.all([query, read, write]);
  t.equal(r.statusCode, 200);
  t.equal(w.statusCode, 201);
  t.equal(q.statusCode, 200, q.body);
  t.equal(order.at(-1), 'query', 'the read and the write did not wait for the query');
  // Had the views been built in one blocking step, the write could only have run after all of them were read.
  t.same(json(q), [{ obs: PATIENTS * OBS_PER_PATIENT / 2, patients: PATIENTS + 1, late: 1 }], 'the Patient table was built after the write');
});

t.test('the time limit covers building the views: 422 too-costly, and the server is usable afterwards', async (t) => {
  const res = await sql('SELECT count(*) AS n FROM obs', [{ name: '_timeout', valueInteger: 1 }]);
  t.equal(res.statusCode, 422, res.body);
  t.equal(json(res).issue[0].code, 'too-costly');
  t.match(json(res).issue[0].diagnostics, /time limit/);
  const again = await sql('SELECT count(*) AS n FROM patients', [{ name: '_timeout', valueInteger: 10000 }]);
  t.equal(again.statusCode, 200, 'the slot of the stopped query was released');
});

t.test('patient: only that patient\'s resources become rows', async (t) => {
  // pat-3 has 10 A1c Observations; with every patient's the join would count 4,000.
  const res = await sql('SELECT p.id, p.gender, count(*) AS n, sum(o.value) AS total FROM patients p JOIN obs o ON o.patient = p.id GROUP BY p.id',
    [{ name: 'patient', valueReference: { reference: 'Patient/pat-3' } }]);
  t.equal(res.statusCode, 200, res.body);
  const expectedTotal = Array.from({ length: OBS_PER_PATIENT }, (_, i) => i).filter((i) => i % 2).reduce((sum, i) => sum + 5 + (i % 7), 0);
  t.same(json(res), [{ id: 'pat-3', gender: 'female', n: OBS_PER_PATIENT / 2, total: expectedTotal }]);
  const unknown = await sql('SELECT (SELECT count(*) FROM obs) AS obs, (SELECT count(*) FROM patients) AS patients', [{ name: 'patient', valueString: 'nobody' }]);
  t.same(json(unknown), [{ obs: 0, patients: 0 }], 'an unknown patient has no rows');
  const bad = await sql('SELECT 1', [{ name: 'patient', valueString: 'Patient/a b' }]);
  t.equal(bad.statusCode, 400);
});

t.test('bad SQL is refused before any resource is read', async (t) => {
  const res = await sql('SELECT nope FROM obs', [{ name: '_timeout', valueInteger: 1 }]);
  t.equal(res.statusCode, 400, 'a 400, not the 422 a started build would give with a 1 ms limit');
});
