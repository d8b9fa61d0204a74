// Osteoporosis (rheumatology): DXA T-scores, weekly bisphosphonate.
import { simpleChronic } from './module.ts';
import { DRUGS } from '../drugs.ts';

export const osteoporosis = simpleChronic({
  key: 'osteoporosis', title: 'Osteoporosis', specialty: 'rheumatology',
  condition: { icd: 'M81.0', snomed: '64859006', text: 'Age-related osteoporosis' },
  // NHANES 2017-2018: 12.6% of adults 50+ (women 19.6%, men 4.4%).
  prevalence: (c) => (c.age < 50 ? 0 : c.female ? (c.age >= 65 ? 0.27 : 0.1) : (c.age >= 65 ? 0.07 : 0.02)), minAge: 50, maxYears: 10,
  drugs: [DRUGS.alendronate70], monitor: ['CMP'], followUpMonths: 12,
  workup: (c, v) => c.imaging(v, '312681000', { table: 'LOINC', code: '38269-7' }, `Lumbar spine T-score ${(-2.5 - c.rng.next() * 1.2).toFixed(1)}; femoral neck T-score ${(-2.0 - c.rng.next() * 1.2).toFixed(1)}. Osteoporosis.`, 'osteoporosis screening'),
  plan: ['Weekly alendronate; calcium 1200 mg and vitamin D 800 IU daily.', 'Fall prevention; repeat DXA in 2 years.'],
});
