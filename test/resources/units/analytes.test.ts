import t from 'tap';
import { canonicalUnit, convertValue, unitKey } from '../../../resources/units/analytes.ts';

t.test('analyte-specific conversions come from the table', async (t) => {
  t.ok(Math.abs(convertValue(5.5, 'mmol/L', 'mg/dL', ['2345-7'])! - 99.09) < 0.01, 'glucose 5.5 mmol/L is 99 mg/dL');
  t.ok(Math.abs(convertValue(186, 'umol/L', 'mg/dL', ['2160-0'])! - 2.104) < 0.001, 'creatinine umol/L');
  t.ok(Math.abs(convertValue(186, 'µmol/L', 'mg/dL', ['2160-0'])! - 2.104) < 0.001, 'the same in µ spelling');
  t.ok(Math.abs(convertValue(10.4, 'nmol/L', 'ng/dL', ['2986-8'])! - 299.9) < 0.1, 'total testosterone nmol/L (molar mass 288.4 g/mol)');
  t.equal(convertValue(10.4, 'nmol/L', 'ng/dL', ['2160-0']), undefined, 'a molar value of another analyte has no testosterone factor');
  t.ok(Math.abs(convertValue(53, 'mmol/mol', '%', ['4548-4'])! - 7.0) < 0.01, 'HbA1c 53 mmol/mol is 7.0 %');
  t.equal(convertValue(100, 'mg/dL', 'mmol/L'), undefined, 'no analyte: no molar mass, no conversion');
  t.equal(convertValue(100, 'mg/dL', 'mmol/L', ['718-7']), undefined, 'the hemoglobin row has no molar conversion');
});

t.test('dimensional conversions are delegated to UCUM', async (t) => {
  t.equal(convertValue(98.6, '°F', 'Cel', ['8310-5']), 37, 'temperature');
  t.ok(Math.abs(convertValue(150, 'lbs', 'kg', ['29463-7'])! - 68.04) < 0.01, 'weight');
  t.equal(convertValue(12, 'g/dL', 'g/L', ['718-7']), 120, 'hemoglobin g/dL -> g/L');
  t.equal(convertValue(5.9, 'mEq/L', 'mmol/L'), 5.9);
  t.equal(convertValue(7.1, 'K/uL', '10*9/L'), 7.1);
});

t.test('unitKey: one key per unit, whatever the spelling', async (t) => {
  t.equal(unitKey('mEq/L'), unitKey('mmol/l'));
  t.equal(unitKey('K/uL'), unitKey('10*3/uL'));
  t.equal(unitKey('mcg'), unitKey('µg'));
  t.not(unitKey('mg/dL'), unitKey('mmol/L'));
  t.equal(canonicalUnit(['2345-7']), 'mg/dl');
  t.equal(canonicalUnit(['718-7']), 'g/dl');
});
