// The reference grammar (FHIR R4 2.3.0.3 literal references, 3.1.0.11.3 conditional ones) and the walk that finds
// Reference elements from the schema's element types.
import t from 'tap';
import { parseReference, referenceProblems, referenceSites } from '../../../resources/validation/references.ts';
import { loadValidators } from '../../../resources/validation/validators.ts';
import { R4_RESOURCE_TYPES } from '../../../resources/validation/resource-types.ts';

const isType = (type: string) => (R4_RESOURCE_TYPES as readonly string[]).includes(type);
const { elementTypes } = loadValidators(R4_RESOURCE_TYPES);

t.test('parseReference: each form, and what is malformed', (t) => {
  const table: [string, string, Record<string, unknown>?][] = [
    ['Patient/1', 'relative', { type: 'Patient', id: '1' }],
    ['Patient/a.b-C/_history/3', 'relative', { type: 'Patient', id: 'a.b-C', version: '3' }],
    ['#p1', 'contained', { id: 'p1' }],
    ['#', 'contained', { id: '' }],
    ['urn:uuid:61ebe359-bfdc-4613-8bf2-c5e300945f0a', 'placeholder'],
    ['urn:oid:1.2.840.113619.2', 'placeholder'],
    ['Patient?identifier=http://x|1', 'conditional', { type: 'Patient', criteria: 'identifier=http://x|1' }],
    ['http://example.org/fhir/Patient/1', 'absolute'],
    ['https://example.org/a.pdf', 'absolute'],
    ['Patient?', 'malformed'],
    ['Patient? ', 'malformed'],
    ['Patient/', 'malformed'],
    ['Patient/.', 'malformed'],
    ['Patient/..', 'malformed'],
    ['Patient/a_b', 'malformed'],
    ['Patient/1/_history/', 'malformed'],
    ['Patient/1/x', 'malformed'],
    ['/Patient/1', 'malformed'],
    ['patient/1', 'malformed'],
    ['Foo/1', 'malformed'],
    ['Foo?x=1', 'malformed'],
    ['#a b', 'malformed'],
    ['urn:uuid:not-a-uuid', 'malformed'],
    ['urn:oid:3.1', 'malformed'],
    ['1234', 'malformed'],
  ];
  for (const [reference, kind, fields] of table) {
    const parsed = parseReference(reference, isType);
    t.equal(parsed.kind, kind, reference);
    if (fields) t.match(parsed, fields, `${reference} fields`);
  }
  t.end();
});

t.test('referenceSites: Reference elements at any depth, by type, not by property name', (t) => {
  const observation = {
    resourceType: 'Observation',
    subject: { reference: 'Patient/1' },
    performer: [{ display: 'no reference' }, { reference: 'Practitioner/2' }],
    identifier: [{ value: 'x', assigner: { reference: 'Organization/3' } }],
    extension: [{ url: 'u', extension: [{ url: 'v', valueReference: { reference: 'Device/4' } }] }],
    component: [{ code: { text: 'c' }, valueString: 'Patient/not-a-reference' }],
    contained: [{ resourceType: 'Specimen', id: 's', subject: { reference: 'Patient/5' } }],
  };
  t.same(
    referenceSites(observation, 'Observation', 'Observation', elementTypes).map((s) => [s.path, s.reference]),
    [
      ['Observation.subject', 'Patient/1'],
      ['Observation.performer[1]', 'Practitioner/2'],
      ['Observation.identifier[0].assigner', 'Organization/3'],
      ['Observation.extension[0].extension[0].valueReference', 'Device/4'],
      ['Observation.contained[0].subject', 'Patient/5'],
    ],
  );
  const detectedIssue = { resourceType: 'DetectedIssue', reference: 'not a Reference but a uri', patient: { reference: 'Patient/1' } };
  t.same(referenceSites(detectedIssue, 'DetectedIssue', 'DetectedIssue', elementTypes).map((s) => s.path), ['DetectedIssue.patient'], 'a uri named reference is not a site');
  const bundle = { resourceType: 'Bundle', type: 'collection', entry: [{ resource: { resourceType: 'Observation', subject: { reference: 'urn:uuid:x' } } }] };
  t.same(referenceSites(bundle, 'Bundle', 'Bundle', elementTypes), [], "a Bundle's entries are resources of their own");
  t.end();
});

t.test('referenceProblems: #id must name a contained resource; Reference.type must agree', (t) => {
  const problems = (resource: Record<string, unknown>) =>
    referenceProblems(resource, resource.resourceType as string, resource.resourceType as string, elementTypes, isType).map((p) => p.site.path);
  t.same(problems({ resourceType: 'Observation', contained: [{ resourceType: 'Patient', id: 'p' }], subject: { reference: '#p' } }), []);
  t.same(problems({ resourceType: 'Observation', contained: [{ resourceType: 'Patient', id: 'p' }], subject: { reference: '#q' } }), ['Observation.subject']);
  t.same(problems({ resourceType: 'Observation', contained: [{ resourceType: 'Patient', id: 'p' }, { resourceType: 'Specimen', id: 's', subject: { reference: '#p' } }] }), [], 'contained resources share the scope');
  t.same(problems({ resourceType: 'Observation', subject: { reference: 'Patient/1', type: 'Patient' } }), []);
  t.same(problems({ resourceType: 'Observation', subject: { reference: 'Patient/1', type: 'Group' } }), ['Observation.subject']);
  t.same(problems({ resourceType: 'Observation', subject: { reference: 'Patient/' }, focus: [{ reference: 'Patient/1' }] }), ['Observation.subject']);
  t.end();
});
