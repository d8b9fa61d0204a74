// Benign prostatic hyperplasia (urology): alpha blocker.
import { simpleChronic } from './module.ts';
import { DRUGS } from '../drugs.ts';

export const bph = simpleChronic({
  key: 'bph', title: 'Benign prostatic hyperplasia', specialty: 'urology', referred: false,
  condition: { icd: 'N40.1', snomed: '266569009', text: 'Benign prostatic hyperplasia with lower urinary tract symptoms' },
  // Symptomatic BPH ~25% of men 50-79, more with age.
  prevalence: (c) => (c.female || c.age < 45 ? 0 : c.age < 60 ? 0.12 : c.age < 75 ? 0.25 : 0.35), minAge: 45, maxYears: 10,
  drugs: [DRUGS.tamsulosin04], monitor: ['BMP'], followUpMonths: 12,
  plan: ['Alpha blocker at bedtime; IPSS yearly.', 'Urology if retention, hematuria or refractory symptoms.'],
});
