// The fast FHIRPath path. Plain (views): exactly what fhirpath.js gives, or step aside (FALLBACK). Typed (search
// indexing): each value with its FHIR type from the R4 model. fast-path-differential.test.ts compares both with
// fhirpath.js over seeded data.
import t from 'tap';
import fhirpath from 'fhirpath';
import r4 from 'fhirpath/fhir-context/r4';
import { compilePlainPath, compileTypedPath, FALLBACK } from '../../../resources/fhirpath/fast-path.ts';
import { viewFunctions } from '../../../resources/views/fhirpath-functions.ts';
import { parseJsonKeepingDecimals } from '../../../resources/views/precise-json.ts';

const reference = (resource: object, expression: string) =>
  fhirpath.evaluate(resource, expression, {}, r4 as never, { userInvocationTable: viewFunctions, resolveInternalTypes: true } as never);

const observation = {
  resourceType: 'Observation', id: 'o1', status: 'final',
  code: { coding: [{ system: 'http://loinc.org', code: '4548-4', display: 'A1c' }, { system: 'http://snomed.info/sct', code: '43396009' }], text: 'A1c' },
  subject: { reference: 'http://example.org/fhir/Patient/p1' },
  effectiveDateTime: '2024-03-01T08:00:00Z',
  valueQuantity: { value: 9.5, unit: '%' },
  category: [{ coding: [{ code: 'laboratory' }] }, { coding: [{ code: 'other' }] }],
};
const patient = { resourceType: 'Patient', id: 'p1', gender: 'female', birthDate: '1960-02-03', active: true, multipleBirthInteger: 2, name: [{ given: ['A', 'B'], family: 'C' }] };

// [resource, expression, the fast path answers (true) or steps aside (false)]
const cases: [object, string, boolean][] = [
  [observation, 'status', true],
  [observation, 'getResourceKey()', true],
  [observation, 'subject.getReferenceKey(Patient)', true],
  [observation, 'subject.getReferenceKey(Encounter)', true],
  [observation, 'subject.getReferenceKey()', true],
  [observation, 'value.ofType(Quantity).value', true],
  [observation, 'value.ofType(Quantity).unit', true],
  [observation, 'value.ofType(string)', false], // another type of the choice is present
  [observation, 'effective.ofType(dateTime)', true],
  [observation, 'code.coding.first().code', true],
  [observation, 'code.coding.code', true],
  [observation, 'category.coding.code', true],
  [observation, "code.coding.where(system = 'http://loinc.org' and code = '4548-4').exists()", true],
  [observation, "code.coding.where(system = 'http://loinc.org' and code = '2823-3').exists()", true],
  [observation, "code.coding.where(system = 'http://loinc.org').code", true],
  [observation, 'code.text.exists()', true],
  [observation, 'note.exists()', true],
  [patient, 'gender', true],
  [patient, 'birthDate', true],
  [patient, 'active', true],
  [patient, 'multipleBirth.ofType(integer)', true],
  [patient, 'name.given', true],
  [patient, 'name.first().given.first()', true],
  [patient, 'deceased.ofType(boolean)', true],
  // fhirpath.js decides these
  [observation, 'value.value', false], // a choice element without ofType
  [observation, 'code', false], // a complex result
  [patient, "name.where(family = 'C')", false],
  [{ ...patient, _gender: { extension: [{ url: 'x', valueString: 'y' }] } }, 'gender', false],
  [{ ...patient, gender: undefined, _gender: { extension: [{ url: 'x', valueString: 'y' }] } }, 'gender.exists()', false],
  [{ ...observation, valueQuantity: undefined, valueString: 'high' }, 'value.ofType(Quantity).value', false],
  [parseJsonKeepingDecimals('{"resourceType":"Observation","id":"d","valueQuantity":{"value":1.0}}') as object, 'value.ofType(Quantity).value', false],
  [{ ...patient, deceasedBoolean: false }, 'deceased.ofType(boolean)', true],
];

for (const [resource, expression, fast] of cases) {
  t.test(`plain: ${expression}`, async (t) => {
    const simple = compilePlainPath(expression, viewFunctions);
    t.ok(simple, 'inside the subset');
    const result = simple!(resource);
    if (!fast) {
      t.equal(result, FALLBACK, 'steps aside for fhirpath.js');
      return;
    }
    t.not(result, FALLBACK, 'answers directly');
    t.same(result, reference(resource, expression), 'the same as fhirpath.js');
  });
}

t.test('plain: outside the subset, not compiled', async (t) => {
  for (const expression of ['Patient.name', '%rowIndex', 'name.given.join(\' \')', "birthDate = '1960-02-03'",
    "code.coding.where(code = '2024').exists()", 'value.ofType(Quantity).value > 9', 'name[0]', 'gender or active', "where(system = 'x')", '',
    'value.as(Quantity)', '(value as Quantity).value', "subject.where(resolve() is Patient)", 'contains']) {
    t.equal(compilePlainPath(expression, viewFunctions), undefined, expression);
  }
});

t.test('plain: a keyword after a dot is a member, as in the FHIRPath grammar', async (t) => {
  const valueSet = { resourceType: 'ValueSet', expansion: { contains: [{ code: 'a' }, { code: 'b' }] } };
  const fast = compilePlainPath('expansion.contains.code', viewFunctions);
  t.same(fast?.(valueSet), ['a', 'b']);
  t.same(fast?.(valueSet), reference(valueSet, 'expansion.contains.code'));
});

const typed = (expression: string, type: string, resource: object) => compileTypedPath(expression, type)?.(resource as Record<string, unknown>);

t.test('typed: values come with their FHIR types', async (t) => {
  t.same(typed('Observation.value', 'Observation', observation), [{ value: observation.valueQuantity, type: 'Quantity' }], 'a choice element, typed by its key');
  t.same(typed('(Observation.effective as dateTime)', 'Observation', observation), [{ value: '2024-03-01T08:00:00Z', type: 'dateTime' }], 'the as operator');
  t.same(typed('Observation.value.as(Quantity)', 'Observation', observation), [{ value: observation.valueQuantity, type: 'Quantity' }], 'the as function');
  t.same(typed('Observation.value.as(string)', 'Observation', observation), [], 'another type of the choice');
  t.same(typed('(Observation.value as Quantity).unit', 'Observation', observation), [{ value: '%', type: 'string' }], 'members after as');
  t.same(typed('Observation.category', 'Observation', observation), observation.category.map((value) => ({ value, type: 'CodeableConcept' })), 'each item of an array');
  t.same(typed('Patient.birthDate', 'Patient', patient), [{ value: '1960-02-03', type: 'date' }]);
  t.same(typed('Patient.name.given', 'Patient', patient), [{ value: 'A', type: 'string' }, { value: 'B', type: 'string' }], 'through a complex type');
  t.same(typed('Resource.id', 'Patient', patient), [{ value: 'p1', type: 'string' }], 'a Resource branch (the R4 model types id as System.String)');
  const person = { resourceType: 'Patient', telecom: [{ system: 'phone', value: '1' }, { system: 'email', value: 'a@b' }] };
  t.same(typed("Patient.telecom.where(system='email')", 'Patient', person), [{ value: person.telecom[1], type: 'ContactPoint' }], 'where on a member');
  t.same(typed('Observation.subject.where(resolve() is Patient)', 'Observation', observation), [{ value: observation.subject, type: 'Reference' }], 'resolve() is T on an absolute reference');
  t.same(typed('Observation.subject.where(resolve() is Group)', 'Observation', observation), [], 'resolve() is another type');
});

t.test('typed: outside the subset or the model, not compiled (the indexer uses fhirpath.js)', async (t) => {
  for (const [expression, type] of [
    ['Patient.deceased.exists() and Patient.deceased != false', 'Patient'], ['Bundle.entry[0].resource', 'Bundle'],
    ['Patient.name.first()', 'Patient'], ['Patient.unknownElement', 'Patient'], ['Observation.subject', 'Patient'],
    ['subject', 'Observation'], ["Patient.name.where(family = 'C' and given = 'A')", 'Patient'],
  ]) t.equal(compileTypedPath(expression, type), undefined, expression);
  t.ok(compileTypedPath('ValueSet.expansion.contains.code', 'ValueSet'), 'a keyword after a dot is a member');
});
