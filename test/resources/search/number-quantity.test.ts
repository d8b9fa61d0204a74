// Number and quantity search (FHIR R4 3.1.1.4.2, 3.1.1.4.4): prefixes, implicit precision, value|system|code and
// value||unit; composite parameters (3.1.1.4.8).
import t from 'tap';
import { observation, searchApp } from './fixtures.ts';

const UCUM = 'http://unitsofmeasure.org';
const data = [
  observation('k41', { valueQuantity: { value: 4.1, unit: 'mmol/L', system: UCUM, code: 'mmol/L' } }),
  observation('k55', { valueQuantity: { value: 5.5, unit: 'mmol/L', system: UCUM, code: 'mmol/L' } }),
  observation('mg100', { code: { coding: [{ system: 'http://loinc.org', code: '2345-7' }] }, valueQuantity: { value: 100, unit: 'mg/dL' } }),
  observation('hcg', { code: { coding: [{ system: 'http://loinc.org', code: '2106-3' }] }, valueString: 'positive' }),
  observation('onset', { code: { coding: [{ system: 'http://loinc.org', code: '11368-8' }] }, valueDateTime: '2023-05-01' }),
  observation('bp', {
    code: { coding: [{ system: 'http://loinc.org', code: '85354-9' }] },
    component: [
      { code: { coding: [{ system: 'http://loinc.org', code: '8480-6' }] }, valueQuantity: { value: 150, unit: 'mmHg', system: UCUM, code: 'mm[Hg]' } },
      { code: { coding: [{ system: 'http://loinc.org', code: '8462-4' }] }, valueQuantity: { value: 70, unit: 'mmHg', system: UCUM, code: 'mm[Hg]' } },
    ],
  }),
];

t.test('quantity prefixes and units', async (t) => {
  const { idSet } = await searchApp(t, data);
  t.same(await idSet('Observation?value-quantity=gt5'), ['k55', 'mg100']);
  t.same(await idSet('Observation?value-quantity=lt5'), ['k41']);
  t.same(await idSet('Observation?value-quantity=ge5.5'), ['k55', 'mg100']);
  t.same(await idSet('Observation?value-quantity=le4.1'), ['k41']);
  t.same(await idSet(`Observation?value-quantity=gt4|${UCUM}|mmol/L`), ['k41', 'k55']);
  t.same(await idSet('Observation?value-quantity=100||mg/dL'), ['mg100'], 'value||unit matches the unit');
  t.same(await idSet('Observation?value-quantity=4.1'), ['k41']);
  t.same(await idSet('Observation?value-quantity=4'), ['k41'], '"4" means [3.5, 4.5): 4.1 is in it');
  t.same(await idSet('Observation?value-quantity=4.0'), [], '"4.0" means [3.95, 4.05): 4.1 is not');
});

t.test('implicit precision of eq and ne', async (t) => {
  const { idSet } = await searchApp(t, data);
  t.same(await idSet('Observation?value-quantity=5.5'), ['k55']);
  t.same(await idSet('Observation?value-quantity=6'), ['k55'], '"6" covers [5.5, 6.5)');
  t.same(await idSet('Observation?value-quantity=ne5.5'), ['k41', 'mg100']);
  t.same(await idSet('Observation?value-quantity=ap95'), ['mg100'], 'within 10%');
});

t.test('composite code-value-quantity pairs the values of one component', async (t) => {
  const { idSet } = await searchApp(t, data);
  t.same(await idSet('Observation?component-code-value-quantity=http://loinc.org|8480-6$gt140'), ['bp']);
  // The tempting wrong answer: systolic code AND some component > 140... diastolic is 70, not > 100.
  t.same(await idSet('Observation?component-code-value-quantity=8462-4$gt100'), [], 'diastolic 70 is not > 100 even though systolic is');
  t.same(await idSet('Observation?code-value-quantity=2345-7$100||mg/dL'), ['mg100']);
});

t.test('malformed numbers are a 400', async (t) => {
  const { get } = await searchApp(t, []);
  t.equal((await get('Observation?value-quantity=gtabc')).status, 400);
  t.equal((await get('Observation?value-quantity=zz5')).status, 400);
});

t.test('composite code-value-string and code-value-date index primitive values (a component typed through the fast path)', async (t) => {
  const { idSet } = await searchApp(t, data);
  t.same(await idSet('Observation?code-value-string=http://loinc.org|2106-3$positive'), ['hcg']);
  t.same(await idSet('Observation?code-value-string=http://loinc.org|2106-3$negative'), []);
  t.same(await idSet('Observation?code-value-date=http://loinc.org|11368-8$ge2023-01-01'), ['onset']);
  t.same(await idSet('Observation?code-value-date=http://loinc.org|11368-8$lt2023-01-01'), []);
});

