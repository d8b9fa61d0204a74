import t from 'tap';
import type { Dosage } from '@medplum/fhirtypes';
import { doseIn, readDose, strengthIn } from '../../../../graders/lib/dose/amount.ts';

const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const lisinopril10 = { coding: [{ system: RXNORM, code: '314076', display: 'lisinopril 10 MG Oral Tablet' }] };
const dose = (value: number, unit?: string, code?: string): Dosage => ({ doseAndRate: [{ doseQuantity: { value, ...(unit ? { unit } : {}), ...(code ? { code, system: 'http://unitsofmeasure.org' } : {}) } }] });

t.test('a count of dose units is the strength times the count', async (t) => {
  t.match(readDose(dose(1, undefined, '{tbl}'), lisinopril10), { value: 10, unit: 'mg', stated: { value: 1, unit: '{tbl}' } }, '1 tablet of a 10 mg SCD is 10 mg, not 1 mg');
  t.match(readDose(dose(1, 'tablet'), lisinopril10), { value: 10, unit: 'mg' });
  t.match(readDose(dose(1), lisinopril10), { value: 10, unit: 'mg' }, 'a value without unit counts dose units');
  t.match(readDose(dose(2, 'TAB'), 'allopurinol 100 MG Oral Tablet'), { value: 200, unit: 'mg' }, '2 tablets of 100 mg is 200 mg');
  t.match(readDose(dose(1, 'capsule'), 'amoxicillin 500 MG Oral Capsule'), { value: 500, unit: 'mg' });
  t.match(readDose(dose(2, 'puff'), 'albuterol 0.09 MG/ACTUAT Metered Dose Inhaler'), { value: 0.18, unit: 'mg' });
  t.match(readDose(dose(1, 'tablet'), 'apixaban 2.5 MG Oral Tablet'), { value: 2.5 }, '2.5 mg, not 25');
  t.match(readDose(dose(1, 'tablet'), 'lisinopril'), { value: 1, unit: '{tbl}' }, 'strength unknown: the count stays a count');
  t.equal(doseIn(dose(1, 'tablet'), 'mg', 'lisinopril'), undefined, '... so it is no amount of mg');
});

t.test('stated amounts are taken as they are, in any spelling', async (t) => {
  t.equal(doseIn(dose(10, 'milligram'), 'mg', lisinopril10), 10);
  t.equal(doseIn(dose(10, 'MG'), 'mg'), 10);
  t.equal(doseIn(dose(500, 'mcg'), 'mg'), 0.5, '500 mcg is 0.5 mg');
  t.equal(doseIn(dose(88, 'ug'), 'mcg'), 88);
  t.equal(doseIn(dose(25, 'mg'), 'mg'), 25, 'a 25 mg dose is not 2.5 mg');
});

t.test('volumes: an amount only with a concentration', async (t) => {
  t.match(readDose(dose(5, 'mL'), 'amoxicillin Oral Suspension'), { value: 5, unit: 'mL' });
  t.equal(doseIn(dose(5, 'mL'), 'mg', 'amoxicillin Oral Suspension'), undefined, '5 mL of a solution without concentration is unknown, not a guess');
  t.equal(doseIn(dose(5, 'mL'), 'mg', 'amoxicillin 50 MG/ML Oral Suspension'), 250);
  t.equal(doseIn(dose(5, 'mL'), 'mg', 'amoxicillin 250 mg/5 mL suspension'), 250);
  t.equal(doseIn(dose(1, 'tablet'), 'mg', 'amoxicillin 50 MG/ML Oral Suspension'), undefined, 'a tablet of a suspension is nothing');
});

t.test('combination products: the dose of the ingredient asked for', async (t) => {
  const combo = 'hydrochlorothiazide 12.5 MG / lisinopril 20 MG Oral Tablet';
  t.equal(doseIn(dose(1, 'tablet'), 'mg', combo, { ingredients: ['29046'] }), 20, 'the lisinopril dose of lisinopril/HCTZ 20-12.5 is 20 mg');
  t.equal(doseIn(dose(1, 'tablet'), 'mg', combo, { ingredients: ['5487'] }), 12.5);
  t.equal(doseIn(dose(1, 'tablet'), 'mg', combo), undefined, 'which ingredient is not said: unknown');
});

t.test('the text when no dose quantity is given', async (t) => {
  t.match(readDose({ text: 'Take 2 tablets (200 mg) by mouth daily' }), { value: 200, unit: 'mg' });
  t.match(readDose({ text: 'Take 1 tablet by mouth daily' }, lisinopril10), { value: 10, unit: 'mg' });
  t.match(readDose({ text: 'Take 2 tablets by mouth daily' }, 'allopurinol 100 MG Oral Tablet'), { value: 200 });
  t.match(readDose({ ...dose(2, 'tablet'), text: '2 tablets (200 mg) daily' }, 'allopurinol'), { value: 200, unit: 'mg' }, 'a count of unknown strength, its total in the text');
  t.equal(readDose({ text: 'as directed' }, lisinopril10), undefined);
});

t.test('strengthIn: the strength of one unit in a unit', async (t) => {
  t.equal(strengthIn('levothyroxine sodium 0.1 MG Oral Tablet', 'mcg'), 100);
  t.equal(strengthIn('insulin glargine 100 UNT/ML Injectable Solution', 'mg'), undefined, 'a concentration is no strength per unit');
});
