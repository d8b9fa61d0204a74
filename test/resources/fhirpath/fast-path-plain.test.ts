// The direct FHIRPath evaluator must give exactly what fhirpath.js gives, or step aside (FALLBACK).
import t from 'tap';
import fhirpath from 'fhirpath';
import r4 from 'fhirpath/fhir-context/r4';
import { compileSimplePath, FALLBACK } from '../../../resources/views/simple-path.ts';
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
  t.test(expression, async (t) => {
    const simple = compileSimplePath(expression);
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

t.test('outside the subset: not compiled', async (t) => {
  for (const expression of ['Patient.name', '%rowIndex', 'name.given.join(\' \')', "birthDate = '1960-02-03'",
    "code.coding.where(code = '2024').exists()", 'value.ofType(Quantity).value > 9', 'name[0]', 'gender or active', "where(system = 'x')", '']) {
    t.equal(compileSimplePath(expression), undefined, expression);
  }
});
