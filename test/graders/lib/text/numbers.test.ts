import t from 'tap';
import { fractionsIn, numbersIn, spelledNumber } from '../../../../graders/lib/text/numbers.ts';

const values = (text: string, options = {}) => numbersIn(text, options).map((n) => (n.unit ? [n.value, n.unit] : [n.value]));

t.test('a unit followed by punctuation or the end of the text is still the unit', async (t) => {
  t.same(values('5.9 mmol/L.'), [[5.9, 'mmol/L']], 'the period ends the sentence, it is not part of "mmol/L"');
  t.same(values('K 5.9 mmol/L, Cr 1.9 mg/dL;'), [[5.9, 'mmol/L'], [1.9, 'mg/dL']]);
  t.same(values('K 5.9,'), [[5.9]]);
  t.same(values('(5.9)'), [[5.9]]);
  t.same(values('5.9mmol/L'), [[5.9, 'mmol/L']]);
  t.same(values('A1c 8.4%.'), [[8.4, '%']]);
  t.same(values('eGFR 42 mL/min/1.73 m2, K 5.9'), [[42, 'mL/min/1.73 m2'], [5.9]], 'the 1.73 of the eGFR unit is no value');
  t.same(values('eGFR (mL/min/1.73m2): 42'), [[42]]);
});

t.test('numbers that belong to something else are not values', async (t) => {
  t.same(values('K 5.9 on 2024-03-13'), [[5.9]], 'ISO date');
  t.same(values('K 5.9 on 3/13'), [[5.9]], 'a day without its year, after "on"');
  t.same(values('drawn 04/20/2023: K 5.9'), [[5.9]], 'US date');
  t.same(values('K 5.9 (April 20, 2023)'), [[5.9]], 'written date');
  t.same(values('K 5.9 (ref 3.5-5.1)'), [[5.9]], 'reference range bounds are left out');
  t.same(values('K 5.9 (normal 3.5 to 5.1)'), [[5.9]], '"to" range after a range word');
  t.same(values('eGFR fell from 45 to 28'), [[45], [28]], '"from 45 to 28" is two values in time, not a range');
  t.same(values('was 45 - 6 months ago'), [[45], [6]], 'a spaced dash outside a reference context is punctuation');
  t.same(numbersIn('K 5.9 (ref 3.5-5.1)', { ranges: true }).map((n) => [n.value, n.role ?? '']), [[5.9, ''], [3.5, 'range'], [5.1, 'range']]);
  t.same(values('2/30/2023 typo'), [], 'an impossible date is still not three numbers');
  t.same(values('T-score -2.7'), [[-2.7]], 'a minus sign after a space is a sign');
});

t.test('words after a number are units only when they look like units', async (t) => {
  t.same(values('12 years ago'), [[12]]);
  t.same(values('5 patients, 2 criteria'), [[5], [2]]);
  t.same(values('total 1,250 cells').map((v) => v[0]), [1250]);
});

t.test('spelled counts, only when asked for', async (t) => {
  t.same(values('two criteria met'), []);
  t.same(values('two criteria met', { words: true }), [[2]]);
  t.equal(spelledNumber('twenty-one'), 21);
  t.equal(spelledNumber('twelve'), 12);
  t.equal(spelledNumber('dozen'), undefined);
  t.same(values('no one was harmed', { words: true }), [], '"no one" is a pronoun');
});

t.test('fractions: "5/12 cores", "5 of 12", "five of twelve" read the same', async (t) => {
  const read = (s: string) => fractionsIn(s).map((f) => [f.numerator, f.denominator]);
  t.same(read('5/12 cores positive'), [[5, 12]]);
  t.same(read('5 of 12 cores'), [[5, 12]]);
  t.same(read('5 out of the 12 cores'), [[5, 12]]);
  t.same(read('five of twelve cores'), [[5, 12]]);
  t.same(read('BP 140/90 mmHg'), [], 'a blood pressure is no fraction');
  t.same(read('seen on 3/13 for follow-up'), [], 'a date is no fraction');
  t.same(read('12 of 5'), [], 'a part larger than the whole is not a fraction');
  const denominator = numbersIn('5 of 12 cores').find((n) => n.value === 12);
  t.equal(denominator?.role, 'denominator', 'the whole is marked, so it is never taken for the count');
});
