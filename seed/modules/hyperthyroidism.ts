// Hyperthyroidism (endocrinology): suppressed TSH, high free T4, methimazole.
import { byAge, simpleChronic } from './module.ts';
import { DRUGS } from '../drugs.ts';
import { DAY } from '../time.ts';

export const hyperthyroidism = simpleChronic({
  key: 'hyperthyroidism', title: 'Hyperthyroidism', specialty: 'endocrinology',
  condition: { icd: 'E05.90', snomed: '34486009', text: 'Hyperthyroidism' },
  // ~1.2% of US adults (ATA), mostly women.
  prevalence: (c) => byAge(c.age, [0.008, 0.012, 0.012]) * (c.female ? 1.6 : 0.4), minAge: 18, maxYears: 6,
  drugs: [DRUGS.methimazole10], monitor: ['TSH', 'FT4', 'CBC'], followUpMonths: 4,
  effects: (c, onset) => { c.modify('TSH', (t, v) => (t >= onset - 60 * DAY ? (c.onMed('6835', t) && t > onset + 120 * DAY ? v : 0.02) : v)); c.modify('FT4', (t, v) => (t >= onset - 60 * DAY && !(c.onMed('6835', t) && t > onset + 120 * DAY) ? v * 2.2 : v)); },
  plan: ['Methimazole; TSH and free T4 every 4-6 weeks until euthyroid.', 'CBC and liver tests if fever or jaundice.'],
});
