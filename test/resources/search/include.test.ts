// _include and _revinclude (FHIR R4 3.1.1.5.4): included resources carry search.mode = include; :iterate; *.
import t from 'tap';
import { observation, patient, searchApp } from './fixtures.ts';

const data = [
  { resourceType: 'Organization', id: 'org', name: 'Acme' },
  patient('x', { managingOrganization: { reference: 'Organization/org' } }),
  patient('y'),
  observation('o1', { subject: { reference: 'Patient/x' } }),
  observation('o2', { subject: { reference: 'Patient/x' } }),
  { resourceType: 'Provenance', id: 'prov', target: [{ reference: 'Patient/y' }], recorded: '2023-01-01T00:00:00Z', agent: [{ who: { reference: 'Organization/org' } }] },
] as never[];

const modes = (entries: { resource?: { resourceType: string; id?: string }; search?: { mode?: string } }[] = []) =>
  entries.map((e) => `${e.search?.mode}:${e.resource!.resourceType}/${e.resource!.id}`).sort();

t.test('_include adds each referenced resource once, marked include', async (t) => {
  const { get } = await searchApp(t, data);
  const { body } = await get('Observation?_include=Observation:patient');
  t.same(modes(body.entry), ['include:Patient/x', 'match:Observation/o1', 'match:Observation/o2']);
  t.equal(body.total, 2, 'total counts matches only');
  t.ok(body.entry!.every((e) => e.fullUrl === `http://localhost:80/fhir/${e.resource!.resourceType}/${e.resource!.id}`), 'absolute fullUrls');
});

t.test('_include:iterate follows references of included resources; * includes every reference', async (t) => {
  const { get } = await searchApp(t, data);
  const plain = await get('Observation?_include=Observation:patient&_include=Patient:organization');
  t.same(modes(plain.body.entry), ['include:Patient/x', 'match:Observation/o1', 'match:Observation/o2'], 'without :iterate Patient:organization applies to matches only');
  const iterated = await get('Observation?_include=Observation:patient&_include:iterate=Patient:organization');
  t.same(modes(iterated.body.entry), ['include:Organization/org', 'include:Patient/x', 'match:Observation/o1', 'match:Observation/o2']);
  const star = await get('Patient?_id=x&_include=*');
  t.same(modes(star.body.entry), ['include:Organization/org', 'match:Patient/x']);
});

t.test('_revinclude', async (t) => {
  const { get } = await searchApp(t, data);
  const { body } = await get('Patient?_revinclude=Observation:subject&_revinclude=Provenance:target');
  t.same(modes(body.entry), ['include:Observation/o1', 'include:Observation/o2', 'include:Provenance/prov', 'match:Patient/x', 'match:Patient/y']);
});
