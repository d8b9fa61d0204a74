import t from 'tap';
import { convert, normalizeUnit, withinTolerance } from '../../../graders/lib/units.ts';

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
