// Gout (rheumatology): urate high before diagnosis, allopurinol titrated to urate < 6 mg/dL with colchicine
// prophylaxis (ACR 2020); CKD and diuretics raise the risk.
import { byAge, simpleChronic } from './module.ts';
import { DRUGS } from '../drugs.ts';
import { YEAR } from '../time.ts';

export const gout = simpleChronic({
  key: 'gout', title: 'Gout', specialty: 'rheumatology', referred: false,
  condition: { icd: 'M10.9', snomed: '90560007', text: 'Gout' },
  // NHANES 2015-2016: 3.9% of adults (men 5.2%, women 2.7%); more with CKD and diuretics.
  prevalence: (c, planned) => byAge(c.age, [0.015, 0.05, 0.08]) * (c.female ? 0.5 : 1.4) * (planned.has('ckd') ? 2 : 1), minAge: 25, maxYears: 10,
  drugs: [DRUGS.allopurinol100], monitor: ['URIC', 'BMP'], followUpMonths: 6,
  effects: (c, onset) => c.modify('URIC', (t, v) => (t >= onset - 2 * YEAR ? v + 3.5 : v)),
  workup: (c, v) => { c.test(v, 'URIC', { reliable: true }); c.prescribe(DRUGS.colchicine06, v, { indication: 'gout', end: v.start + 0.5 * YEAR, completes: true }); },
  plan: ['Allopurinol titrated to serum urate below 6 mg/dL.', 'Colchicine prophylaxis for 6 months while starting urate-lowering therapy.'],
});
