// Bipolar disorder (psychiatry): lithium with kidney and thyroid monitoring.
import { byAge, simpleChronic } from './module.ts';
import { DRUGS } from '../drugs.ts';

export const bipolar = simpleChronic({
  key: 'bipolar', title: 'Bipolar disorder', specialty: 'psychiatry',
  condition: { icd: 'F31.9', snomed: '13746004', text: 'Bipolar disorder' },
  // NIMH: 2.8% past-year prevalence; diagnosed ~1.5%.
  prevalence: (c) => byAge(c.age, [0.018, 0.014, 0.008]), minAge: 18, maxYears: 15,
  drugs: [DRUGS.lithium300], monitor: ['BMP', 'TSH', 'LITH'], followUpMonths: 4,
  // Lithium is cleared by the kidney: the level rises as eGFR falls (up to ~1.8x the usual level).
  effects: (c) => c.modify('LITH', (t, v) => (c.onMed('42351', t) ? v * Math.min(1.8, Math.max(1, 75 / c.expected('EGFR', t))) : 0)),
  plan: ['Lithium with levels, kidney and thyroid function every 6 months.', 'Psychoeducation; sleep regularity.'],
});
