// Token modifiers backed by the terminology (FHIR R4 3.1.1.4.10): :below / :above (is-a hierarchy), :in / :not-in
// (ValueSet membership, implicit value sets included) and :text over displays and synonyms. The terminology index
// is built only when one of these is used.
import t from 'tap';
import type { Resource } from '@medplum/fhirtypes';
import { terminologyBuildMillis } from '../../../resources/terminology/index.ts';
import { observation, patient, searchApp } from './fixtures.ts';

const SCT = 'http://snomed.info/sct';
const condition = (id: string, code: string, display?: string): Resource =>
  ({ resourceType: 'Condition', id, subject: { reference: 'Patient/p1' }, code: { coding: [{ system: SCT, code, ...(display ? { display } : {}) }] } }) as Resource;

const data = [
  patient('p1'),
  condition('dm', '73211009'), // Diabetes mellitus (the parent)
  condition('t2dm', '44054006'), // Type 2 diabetes mellitus, is-a 73211009
  condition('htn', '38341003'), // Hypertensive disorder: unrelated
  // Same code in another system: never matches a SNOMED hierarchy.
  { resourceType: 'Condition', id: 'local', subject: { reference: 'Patient/p1' }, code: { coding: [{ system: 'urn:local', code: '44054006' }] } } as Resource,
  observation('k', { code: { coding: [{ system: 'http://loinc.org', code: '2823-3' }] }, status: 'final' }),
  observation('local-obs', { code: { coding: [{ system: 'urn:local:flowsheet', code: 'K-SERUM' }] }, status: 'preliminary' }),
  observation('amended', { code: { coding: [{ system: 'http://loinc.org', code: '2823-3' }] }, status: 'amended' }),
];

t.test('searches without terminology modifiers do not load the terminology', async (t) => {
  const { idSet } = await searchApp(t, data);
  t.same(await idSet('Condition?code=http://snomed.info/sct|44054006'), ['t2dm']);
  t.same(await idSet('Observation?code:not=2823-3'), ['local-obs']);
  t.equal(terminologyBuildMillis(), 0, 'terminology index not built');
});

t.test(':below and :above follow the is-a hierarchy within the system', async (t) => {
  const { idSet } = await searchApp(t, data);
  t.same(await idSet(`Condition?code:below=${SCT}|73211009`), ['dm', 't2dm'], 'the parent and its child, not the same code in another system');
  t.same(await idSet(`Condition?code:below=${SCT}|44054006`), ['t2dm'], 'a leaf: itself only');
  t.same(await idSet(`Condition?code:above=${SCT}|44054006`), ['dm', 't2dm'], 'the code and its ancestors');
  t.same(await idSet(`Condition?code:below=${SCT}|73211009&code:not=44054006`), ['dm'], 'AND with another criterion');
  t.same(await idSet(`Patient?_has:Condition:subject:code:below=${SCT}|73211009`), ['p1']);
});

t.test(':in and :not-in test ValueSet membership', async (t) => {
  const { idSet, get } = await searchApp(t, data);
  t.same(await idSet('Observation?code:in=http://loinc.org/vs'), ['amended', 'k'], 'the implicit all-of-LOINC value set');
  t.same(await idSet('Observation?code:not-in=http://loinc.org/vs'), ['local-obs']);
  t.same(await idSet('Observation?status:in=http://hl7.org/fhir/ValueSet/observation-status'), ['amended', 'k', 'local-obs']);
  // A real (non-implicit) value set that leaves codes out: condition-clinical has no Observation statuses.
  t.same(await idSet('Observation?status:not-in=http://hl7.org/fhir/ValueSet/condition-clinical'), ['amended', 'k', 'local-obs']);
  const bad = await get('Observation?code:in=http://example.org/no-such-vs');
  t.equal(bad.status, 400);
  t.match(bad.body.issue![0].diagnostics, /code:in/);
});

t.test(':text matches the terminology display and synonyms as well as the stored text', async (t) => {
  const { idSet } = await searchApp(t, [patient('p1'), condition('t2dm', '44054006'), condition('htn', '38341003', 'High blood pressure')]);
  t.same(await idSet('Condition?code:text=type 2 diabetes'), ['t2dm'], 'no stored display: found through the code system');
  t.same(await idSet('Condition?code:text=high blood'), ['htn'], 'the stored display');
});
