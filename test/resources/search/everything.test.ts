// Patient/[id]/$everything and Patient/$everything (FHIR R4 OperationDefinition Patient-everything).
import t from 'tap';
import { observation, patient, searchApp } from './fixtures.ts';

const data = [
  { resourceType: 'Practitioner', id: 'doc', name: [{ family: 'House' }] },
  patient('x', { generalPractitioner: [{ reference: 'Practitioner/doc' }] }),
  patient('y'),
  observation('ox1', { subject: { reference: 'Patient/x' } }),
  observation('ox2', { subject: { reference: 'Patient/x' } }),
  observation('oy', { subject: { reference: 'Patient/y' } }),
  { resourceType: 'Condition', id: 'cx', subject: { reference: 'Patient/x' }, code: { text: 'asthma' } },
] as never[];

t.test('the patient, their compartment and referenced resources; _type; paging', async (t) => {
  const { get } = await searchApp(t, data);
  const all = await get('Patient/x/$everything');
  t.equal(all.status, 200);
  const keys = all.body.entry!.map((e) => `${e.resource!.resourceType}/${e.resource!.id}`);
  t.same(keys.sort(), ['Condition/cx', 'Observation/ox1', 'Observation/ox2', 'Patient/x', 'Practitioner/doc']);
  t.notOk(keys.includes('Observation/oy'), "another patient's data is excluded");
  const typed = await get('Patient/x/$everything?_type=Observation');
  t.same(typed.body.entry!.map((e) => e.resource!.id).sort(), ['ox1', 'ox2']);
  const page = await get('Patient/x/$everything?_count=2');
  t.equal(page.body.entry!.length, 2);
  t.equal(page.body.total, 5);
  const next = page.body.link!.find((l) => l.relation === 'next')!.url!;
  t.match(next, /\$everything\?.*_offset=2/);
  const future = await get('Patient/x/$everything?_since=2999-01-01T00:00:00Z');
  t.notOk(future.body.entry, '_since filters by lastUpdated');
  t.equal((await get('Patient/nobody/$everything')).status, 404);
});

t.test('Patient/$everything covers every patient', async (t) => {
  const { get } = await searchApp(t, data);
  const all = await get('Patient/$everything');
  const keys = all.body.entry!.map((e) => `${e.resource!.resourceType}/${e.resource!.id}`);
  for (const k of ['Patient/x', 'Patient/y', 'Observation/oy', 'Condition/cx']) t.ok(keys.includes(k), k);
});
