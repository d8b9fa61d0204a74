// Token search (FHIR R4 3.1.1.4.10): code, system|code, |code, system|, :not, :text, :of-type, :missing,
// booleans; malformed terminology modifiers (terminology-modifiers.test.ts has the working ones).
import t from 'tap';
import { observation, patient, searchApp } from './fixtures.ts';

const LOINC = 'http://loinc.org';
const LOCAL = 'urn:local';
const data = [
  patient('p1', { active: true, gender: 'male', identifier: [{ system: 'urn:mrn', value: 'MRN1', type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MR' }] } }] }),
  patient('p2', { active: false, gender: 'female', identifier: [{ system: 'urn:ssn', value: 'MRN1' }] }),
  patient('p3', { gender: 'female' }),
  observation('loinc', { code: { coding: [{ system: LOINC, code: 'K', display: 'Potassium serum' }] } }),
  observation('local', { code: { coding: [{ system: LOCAL, code: 'K' }], text: 'Kalium' } }),
  observation('nosys', { code: { coding: [{ code: 'K' }] } }),
  observation('glucose', { code: { coding: [{ system: LOINC, code: 'GLU', display: 'Glucose' }] } }),
];

t.test('code, system|code, |code, system|', async (t) => {
  const { idSet } = await searchApp(t, data);
  t.same(await idSet('Observation?code=K'), ['local', 'loinc', 'nosys'], 'code alone: any system');
  t.same(await idSet(`Observation?code=${LOINC}|K`), ['loinc'], 'system|code: only that system');
  t.same(await idSet('Observation?code=|K'), ['nosys'], '|code: no system');
  t.same(await idSet(`Observation?code=${LOINC}|`), ['glucose', 'loinc'], 'system|: any code of the system');
  t.same(await idSet('Observation?code=k'), [], 'codes are case-sensitive');
  t.same(await idSet(`Observation?code=${LOINC}|GLU,${LOCAL}|K`), ['glucose', 'local'], 'OR');
});

t.test(':not matches resources without a matching code, including those without the element', async (t) => {
  const { idSet } = await searchApp(t, data);
  t.same(await idSet('Observation?code:not=K'), ['glucose']);
  t.same(await idSet('Patient?gender:not=male'), ['p2', 'p3']);
});

t.test(':text searches display and text', async (t) => {
  const { idSet } = await searchApp(t, data);
  t.same(await idSet('Observation?code:text=potassium'), ['loinc']);
  t.same(await idSet('Observation?code:text=kal'), ['local']);
});

t.test('identifiers: value, system|value, :of-type', async (t) => {
  const { idSet } = await searchApp(t, data);
  t.same(await idSet('Patient?identifier=MRN1'), ['p1', 'p2']);
  t.same(await idSet('Patient?identifier=urn:mrn|MRN1'), ['p1']);
  t.same(await idSet('Patient?identifier:of-type=http://terminology.hl7.org/CodeSystem/v2-0203|MR|MRN1'), ['p1']);
});

t.test('booleans and :missing', async (t) => {
  const { idSet } = await searchApp(t, data);
  t.same(await idSet('Patient?active=true'), ['p1']);
  t.same(await idSet('Patient?active=false'), ['p2']);
  t.same(await idSet('Patient?active:missing=true'), ['p3']);
});

t.test('an unknown value set, a :below without a system and unknown modifiers are a 400 naming the parameter', async (t) => {
  const { get } = await searchApp(t, []);
  for (const url of ['Observation?code:in=http://x/vs', 'Observation?code:below=K', 'Observation?code:bogus=K']) {
    const { status, body } = await get(url);
    t.equal(status, 400, url);
    t.equal(body.resourceType, 'OperationOutcome');
    t.match(body.issue![0].diagnostics, /code:/, 'names the parameter');
  }
});
