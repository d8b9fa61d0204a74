// Reference search (FHIR R4 3.1.1.4.9), chaining (3.1.1.5.12) and reverse chaining _has (3.1.1.5.13).
import t from 'tap';
import { observation, patient, searchApp } from './fixtures.ts';

const data = [
  { resourceType: 'Organization', id: 'org', name: 'Acme Clinic' },
  { resourceType: 'Practitioner', id: 'doc', name: [{ family: 'House' }] },
  patient('x', { name: [{ family: 'Xavier' }], managingOrganization: { reference: 'Organization/org' }, generalPractitioner: [{ reference: 'Practitioner/doc' }] }),
  patient('y', { name: [{ family: 'Young' }] }),
  { resourceType: 'Group', id: 'x', type: 'person', actual: true },
  observation('ox', { subject: { reference: 'Patient/x' } }),
  observation('oy', { subject: { reference: 'Patient/y' }, code: { coding: [{ system: 'http://loinc.org', code: 'GLU' }] } }),
  observation('ogroup', { subject: { reference: 'Group/x' } }),
  observation('oident', { subject: { identifier: { system: 'urn:mrn', value: '77' } } }),
] as never[];

t.test('patient=Patient/x equals patient=x; absolute URLs on this server; the :Type modifier', async (t) => {
  const { idSet } = await searchApp(t, data);
  t.same(await idSet('Observation?patient=Patient/x'), ['ox']);
  t.same(await idSet('Observation?patient=x'), ['ox'], 'patient= only targets Patient');
  t.same(await idSet('Observation?subject=x'), ['ogroup', 'ox'], 'a bare id matches any target type');
  t.same(await idSet('Observation?subject:Patient=x'), ['ox']);
  t.same(await idSet('Observation?subject=Group/x'), ['ogroup']);
  t.same(await idSet('Observation?subject=http://localhost:80/fhir/Patient/x'), ['ox'], 'absolute URL on this server');
  t.same(await idSet('Observation?subject:identifier=urn:mrn|77'), ['oident']);
  t.same(await idSet('Observation?subject:missing=true'), []);
  t.same(await idSet('Observation?encounter:missing=true'), ['ogroup', 'oident', 'ox', 'oy']);
});

t.test('chained parameters differ from plain ones; three levels', async (t) => {
  const { idSet } = await searchApp(t, data);
  t.same(await idSet('Observation?subject:Patient.name=xav'), ['ox']);
  t.same(await idSet('Observation?patient.name=young'), ['oy']);
  t.same(await idSet('Observation?patient.organization.name=acme'), ['ox'], 'three levels');
  t.same(await idSet('Observation?patient.general-practitioner.name=house'), ['ox']);
  t.same(await idSet('Observation?patient.organization.name=nobody'), []);
});

t.test('_has, nested', async (t) => {
  const { idSet } = await searchApp(t, data);
  t.same(await idSet('Patient?_has:Observation:patient:code=GLU'), ['y']);
  t.same(await idSet('Patient?_has:Observation:patient:code=2823-3'), ['x']);
  t.same(await idSet('Organization?_has:Patient:organization:_has:Observation:patient:code=2823-3'), ['org'], 'nested');
  t.same(await idSet('Organization?_has:Patient:organization:_has:Observation:patient:code=GLU'), []);
});
