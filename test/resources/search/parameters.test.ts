// Search-wide rules: unknown parameters reported (or refused under Prefer: handling=strict), GET equals POST
// _search, system search with _type, compartment search, _id/_tag/_profile, _text/_content, CapabilityStatement.
import t from 'tap';
import { observation, patient, searchApp } from './fixtures.ts';

const note = Buffer.from('Patient reports dizziness after metformin').toString('base64');
const data = [
  patient('x', { meta: { tag: [{ system: 'urn:tags', code: 'vip' }], profile: ['http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient'] }, text: { status: 'generated', div: '<div xmlns="http://www.w3.org/1999/xhtml">Known <b>penicillin</b> allergy</div>' } }),
  patient('y', { name: [{ family: 'Young' }] }),
  observation('ox', { subject: { reference: 'Patient/x' }, note: [{ text: 'hemolyzed sample' }] }),
  observation('oy', { subject: { reference: 'Patient/y' } }),
  { resourceType: 'DocumentReference', id: 'doc', status: 'current', subject: { reference: 'Patient/x' }, content: [{ attachment: { contentType: 'text/plain', data: note } }] },
] as never[];

t.test('an unknown parameter is ignored and reported; strict handling makes it a 400', async (t) => {
  const { get } = await searchApp(t, data);
  const lenient = await get('Patient?foo=bar&family=young');
  t.equal(lenient.status, 200);
  const outcome = lenient.body.entry!.find((e) => e.search?.mode === 'outcome');
  t.ok(outcome, 'an outcome entry');
  t.match(JSON.stringify(outcome!.resource), /foo/);
  t.same(lenient.body.entry!.filter((e) => e.search?.mode === 'match').map((e) => e.resource!.id), ['y'], 'the known parameter still applies');
  const strict = await get('Patient?foo=bar', { prefer: 'handling=strict' });
  t.equal(strict.status, 400);
  t.match(strict.body.issue![0].diagnostics, /foo/);
});

t.test('GET [type]? equals POST [type]/_search with a form body', async (t) => {
  const { app, get } = await searchApp(t, data);
  const viaGet = await get('Observation?patient=Patient/x&_sort=-_id');
  const res = await app.inject({ method: 'POST', url: '/fhir/Observation/_search', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'patient=Patient%2Fx&_sort=-_id' });
  t.equal(res.statusCode, 200);
  const viaPost = JSON.parse(res.body);
  t.same(viaPost.entry, viaGet.body.entry);
  t.equal(viaPost.total, viaGet.body.total);
  t.match(viaPost.link.find((l: { relation: string }) => l.relation === 'self').url, /\/fhir\/Observation\?/, 'links page through GET');
});

t.test('system search with _type; compartment search', async (t) => {
  const { idSet, get } = await searchApp(t, data);
  t.same(await idSet('?_type=Patient,Observation&_id=x,ox'), ['ox', 'x']);
  t.same(await idSet('?_id=doc'), ['doc'], 'all types');
  t.same(await idSet('Patient/x/Observation'), ['ox']);
  t.same(await idSet('Patient/x/DocumentReference'), ['doc']);
  t.same(await idSet('Patient/y/Observation?code=2823-3'), ['oy']);
  t.equal((await get('Patient/nobody/Observation')).status, 404);
});

t.test('_id, _tag, _profile', async (t) => {
  const { idSet } = await searchApp(t, data);
  t.same(await idSet('Patient?_id=x,y'), ['x', 'y']);
  t.same(await idSet('Patient?_tag=urn:tags|vip'), ['x']);
  t.same(await idSet('Patient?_profile=http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient'), ['x']);
});

t.test('_text (narrative and notes) and _content (including decoded attachments)', async (t) => {
  const { idSet } = await searchApp(t, data);
  t.same(await idSet('Patient?_text=penicillin'), ['x']);
  t.same(await idSet('Observation?_text=hemolyzed'), ['ox']);
  t.same(await idSet('DocumentReference?_content=dizziness'), ['doc'], 'base64 text decoded');
  t.same(await idSet('Patient?_content=young'), ['y']);
  t.same(await idSet('Patient?_text=young'), [], 'a name is not narrative');
});

t.test('the CapabilityStatement lists the registry parameters', async (t) => {
  const { app } = await searchApp(t, []);
  const res = await app.inject({ url: '/fhir/metadata' });
  const cs = JSON.parse(res.body);
  const obs = cs.rest[0].resource.find((r: { type: string }) => r.type === 'Observation');
  const names = obs.searchParam.map((p: { name: string }) => p.name);
  for (const n of ['patient', 'code', 'date', 'value-quantity', 'code-value-quantity', '_id', '_lastUpdated']) t.ok(names.includes(n), n);
});
