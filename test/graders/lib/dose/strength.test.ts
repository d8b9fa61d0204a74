import t from 'tap';
import type { Medication } from '@medplum/fhirtypes';
import { strengthFor, strengthsInName, strengthsOf } from '../../../../graders/lib/dose/strength.ts';

const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';

t.test('strengths in RxNorm normalized names and everyday names', async (t) => {
  t.match(strengthsInName('lisinopril 10 MG Oral Tablet'), [{ ingredient: 'lisinopril', rxcui: '29046', value: 10, unit: 'mg', per: '' }]);
  t.match(strengthsInName('sulfamethoxazole 800 MG / trimethoprim 160 MG Oral Tablet'), [{ ingredient: 'sulfamethoxazole', value: 800 }, { ingredient: 'trimethoprim', value: 160 }]);
  t.match(strengthsInName('24 HR metoprolol succinate 25 MG Extended Release Oral Tablet'), [{ ingredient: 'metoprolol', value: 25 }], '"24 HR" is no strength');
  t.match(strengthsInName('3 ML insulin lispro 100 UNT/ML Pen Injector'), [{ value: 100, unit: '[iU]', per: 'mL' }], '"3 ML" is a package size');
  t.match(strengthsInName('albuterol 0.09 MG/ACTUAT Metered Dose Inhaler'), [{ value: 0.09, unit: 'mg', per: '{actuat}' }]);
  t.match(strengthsInName('amoxicillin 250 mg/5 mL suspension'), [{ value: 250, per: 'mL', perValue: 5 }]);
  t.match(strengthsInName('Jardiance 10 mg tablet'), [{ ingredient: 'empagliflozin', value: 10 }], 'a brand names its ingredient');
  t.match(strengthsInName('lisinopril-HCTZ 20-12.5 mg'), [{ ingredient: 'lisinopril', value: 20 }, { ingredient: 'hydrochlorothiazide', value: 12.5 }]);
  t.match(strengthsInName('carvedilol 12.5 MG Oral Tablet'), [{ value: 12.5 }], '12.5, not 5 or 125');
  t.same(strengthsInName('metformin oral tablet'), []);
  t.match(strengthsInName('glecaprevir/pibrentasvir 100mg/40mg tabs'), [{ ingredient: 'glecaprevir', value: 100 }, { ingredient: 'pibrentasvir', value: 40 }], 'generic names first, a unit on each number');
  t.match(strengthsInName('Epclusa (sofosbuvir 400 mg / velpatasvir 100 mg) tablet'), [{ ingredient: 'sofosbuvir', value: 400 }, { ingredient: 'velpatasvir', value: 100 }], 'a brand before the generic names');
  t.match(strengthsInName('sofosbuvir-velpatasvir 400-100 mg'), [{ ingredient: 'sofosbuvir', value: 400 }, { ingredient: 'velpatasvir', value: 100 }], 'ingredients known by name only');
  t.match(strengthsInName('hydrochlorothiazide/lisinopril 12.5 mg'), [{ ingredient: 'hydrochlorothiazide/lisinopril', value: 12.5 }], 'one number for two names stays unassigned');
});

t.test('combination products: the strength of the ingredient asked for', async (t) => {
  const combo = 'hydrochlorothiazide 12.5 MG / lisinopril 20 MG Oral Tablet';
  t.equal(strengthFor(combo, ['29046'])?.value, 20, 'the lisinopril in lisinopril/HCTZ 20-12.5 is 20 mg');
  t.equal(strengthFor(combo, ['5487'])?.value, 12.5);
  t.equal(strengthFor(combo, ['HCTZ'])?.value, 12.5, 'by abbreviation');
  t.equal(strengthFor(combo), undefined, 'no ingredient named: not the first one by default');
  t.equal(strengthFor('Zestoretic 20-12.5 mg', ['29046']), undefined, 'a brand does not say which number is which');
  t.equal(strengthFor('Jardiance 10 mg tablet', ['1545653'])?.value, 10);
});

t.test('sources: Medication.ingredient, the RxNorm code, the names; a conflict is no strength', async (t) => {
  const med: Medication = {
    resourceType: 'Medication', code: { text: 'levothyroxine tablet' },
    ingredient: [{ itemCodeableConcept: { coding: [{ system: RXNORM, code: '10582' }] }, strength: { numerator: { value: 88, unit: 'mcg' }, denominator: { value: 1, unit: 'tablet' } } }],
  };
  t.match(strengthsOf(med).strengths, [{ rxcui: '10582', value: 88, unit: 'ug', per: '' }]);
  t.match(strengthsOf({ coding: [{ system: RXNORM, code: '314076' }] }).strengths, [{ value: 10 }], 'a code without display: the vocabulary knows it');
  const conflicting = strengthsOf({ coding: [{ system: RXNORM, code: '314076' }], text: 'lisinopril 20 mg tablet' });
  t.same(conflicting.strengths, [], 'a 10 mg code with "20 mg" in its text has no knowable strength');
  t.match(conflicting.conflict, /different strengths/);
  t.same(strengthsOf({ coding: [{ system: RXNORM, code: '197886' }], text: 'lisinopril/HCTZ 20/12.5 mg' }).conflict, undefined, 'the same strengths in another order agree');
});
