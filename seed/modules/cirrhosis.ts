// Cirrhosis (gastroenterology/hepatology): low albumin and platelets, high bilirubin and INR; lactulose; hepatitis C
// raises the risk.
import { byAge, simpleChronic } from './module.ts';
import { DRUGS } from '../drugs.ts';
import { YEAR } from '../time.ts';

export const cirrhosis = simpleChronic({
  key: 'cirrhosis', title: 'Cirrhosis', specialty: 'gastroenterology',
  condition: { icd: 'K74.60', snomed: '19943007', text: 'Cirrhosis of liver' },
  // ~0.3% of adults (NHANES); hepatitis C is a major cause.
  prevalence: (c, planned) => byAge(c.age, [0.001, 0.005, 0.005]) * (planned.has('hepatitisC') ? 10 : 1), minAge: 30, maxYears: 8,
  drugs: [DRUGS.lactulose], monitor: ['CMP', 'CBC', 'INR'], followUpMonths: 6,
  effects: (c, onset) => {
    c.modify('ALB', (t, v) => (t >= onset ? v - 0.9 : v));
    c.modify('TBIL', (t, v) => (t >= onset ? v + 1.2 : v));
    c.modify('PLT', (t, v) => (t >= onset - YEAR ? v * 0.5 : v));
    c.modify('INR', (t, v) => (t >= onset && !c.onMed('11289', t) ? v + 0.35 : v));
    c.modify('AST', (t, v) => (t >= onset - YEAR ? v * 2 : v));
  },
  plan: ['Hepatocellular carcinoma surveillance: ultrasound every 6 months.', 'Variceal screening endoscopy; no alcohol.'],
});
