import t from 'tap';
import { doseInText } from '../../../../graders/lib/dose/sig.ts';

const tablet100 = (kind: string) => (kind === '{tbl}' ? { value: 100, unit: 'mg' } : undefined);

t.test('the dose a sig states', async (t) => {
  t.match(doseInText('Take 2 tablets (200 mg) by mouth daily'), { value: 200, unit: 'mg' }, 'the amount in parentheses is the total');
  t.match(doseInText('10mg PO daily'), { value: 10, unit: 'mg' });
  t.match(doseInText('0.5 mg'), { value: 0.5, unit: 'mg' });
  t.match(doseInText('take 25 mg daily'), { value: 25, unit: 'mg' }, '25 mg, not 2.5');
  t.match(doseInText('take 2.5 mg daily'), { value: 2.5, unit: 'mg' });
  t.match(doseInText('Take 1,000 mg twice daily'), { value: 1000, unit: 'mg' });
  t.match(doseInText('levothyroxine 88 mcg daily'), { value: 88, unit: 'ug' });
  t.match(doseInText('inject 10 units subcut nightly'), { value: 10, unit: '[iU]' });
});

t.test('a count and an amount: total or strength of one unit', async (t) => {
  t.match(doseInText('Take 2 tablets of metformin 500 mg twice daily'), { value: 1000, unit: 'mg' }, '2 tablets of 500 mg is 1000 mg, not 500');
  t.match(doseInText('metformin 500 mg tablet: take 2 tablets BID'), { value: 1000, unit: 'mg' });
  t.match(doseInText('20 mg (2 tablets) daily'), { value: 20, unit: 'mg' }, 'the total written first');
  t.equal(doseInText('Take 2 tablets 500 mg daily'), undefined, 'without the strength "2 tablets 500 mg" is ambiguous');
  t.match(doseInText('Take 2 tablets 500 mg daily', (k) => (k === '{tbl}' ? { value: 500, unit: 'mg' } : undefined)), { value: 1000 }, 'with a 500 mg tablet: 1000 mg');
  t.match(doseInText('Take 2 tablets 500 mg daily', (k) => (k === '{tbl}' ? { value: 250, unit: 'mg' } : undefined)), { value: 500 }, 'with a 250 mg tablet: 500 mg total');
});

t.test('a count alone: times the strength when known, else the count', async (t) => {
  t.match(doseInText('Take 1 tablet by mouth daily', tablet100), { value: 100, unit: 'mg' });
  t.match(doseInText('take half a tablet daily', tablet100), { value: 50, unit: 'mg' });
  t.match(doseInText('Take 2 tablets daily'), { value: 2, unit: '{tbl}' });
  t.equal(doseInText('take 1-2 tablets q6h prn', tablet100), undefined, 'a range is not one dose');
  t.match(doseInText('inhale 2 puffs q4h', (k) => (k === '{actuat}' ? { value: 0.09, unit: 'mg' } : undefined)), { value: 0.18 });
  t.equal(doseInText('as directed'), undefined);
});
