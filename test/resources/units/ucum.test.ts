import t from 'tap';
import { convert, doseUnitKind, normalizeUnit, ucumCode, withinTolerance } from '../../../resources/units/ucum.ts';

t.test('mass conversions', async (t) => {
  t.equal(convert(0.5, 'g', 'mg'), 500);
  t.equal(convert(250, 'mcg', 'mg'), 0.25);
  t.equal(convert(250, 'ug', 'mg'), 0.25);
  t.equal(convert(1, 'Milligrams', 'mg'), 1);
});

t.test('concentration conversions', async (t) => {
  t.ok(Math.abs(convert(1.91, 'g/L', 'mg/dL')! - 191) < 1e-9);
  t.equal(convert(5.9, 'mEq/L', 'mmol/L'), 5.9);
  t.equal(convert(5, 'mg', 'mL'), undefined, 'mass is not volume');
  t.equal(convert(100, 'mg/dL', 'mmol/L'), undefined, 'no molar mass: not convertible');
});

t.test('normalizeUnit drops UCUM braces', async (t) => {
  t.equal(normalizeUnit('mL/min/{1.73_m2}'), 'ml/min/1.73_m2');
  t.equal(normalizeUnit('[mEq]/L'), 'meq/l');
});

t.test('withinTolerance absolute and relative', async (t) => {
  t.ok(withinTolerance(10.9, 10, { relative: 0.1 }));
  t.notOk(withinTolerance(11.1, 10, { relative: 0.1 }));
  t.ok(withinTolerance(5.94, 5.9, { absolute: 0.05 }));
  t.notOk(withinTolerance(5.8, 5.9, { absolute: 0.05 }));
});

t.test('spellings fold to UCUM before converting', async (t) => {
  t.equal(convert(10, 'MG', 'mg'), 10, 'MG is milligrams, not UCUM megagauss');
  t.equal(convert(10, 'milligram', 'g'), 0.01);
  t.equal(convert(500, 'mcg', 'mg'), 0.5, '500 mcg is 0.5 mg, not 500');
  t.equal(convert(500, 'µg', 'mg'), 0.5);
  t.equal(convert(500, 'ug', 'mg'), 0.5);
  t.equal(convert(25, 'mg', 'mg'), 25);
  t.not(convert(25, 'mg', 'g'), 2.5, '25 mg is 0.025 g, not 2.5');
  t.equal(convert(25, 'mg', 'g'), 0.025);
  t.equal(convert(7.2, 'K/uL', '10*9/L'), 7.2);
  t.equal(convert(2.5, 'mIU/L', 'uIU/mL'), 2.5, 'an international unit converts only through its prefix');
  t.equal(convert(98.6, '°F', 'Cel'), 37, 'temperature offset');
  t.equal(convert(10, 'units', '[IU]'), 10);
  t.equal(ucumCode('mEq/L'), 'mmol/L');
  t.equal(ucumCode('mL/min/1.73m2'), 'mL/min/{1.73_m2}');
  t.equal(convert(5.9, 'mmol/L.', 'mEq/L'), 5.9, 'a full stop after the unit');
});

t.test('what UCUM cannot know stays unknown', async (t) => {
  t.equal(convert(1, 'tablet', 'mg'), undefined, 'a tablet is no amount without its strength');
  t.equal(convert(1, '{tbl}', '{capsule}'), undefined, 'UCUM reads both annotations as 1; a tablet is still not a capsule');
  t.equal(convert(1, 'tablet', '{tbl}'), 1);
  t.equal(convert(7, '%', 'mmol/mol'), undefined, 'HbA1c % is not a plain ratio of mmol/mol (7 % is 53, not 70)');
  t.equal(convert(5, 'mL', 'mg'), undefined);
  t.equal(convert(1, 'mg', 'MGX'), undefined, 'unknown unit');
  t.equal(doseUnitKind('TAB'), '{tbl}');
  t.equal(doseUnitKind('puffs'), '{actuat}');
  t.equal(doseUnitKind('mg'), undefined);
});
