// Gastroenterology and hepatology: GERD, cirrhosis, Crohn's disease, ulcerative colitis.
import { byAge, simpleChronic } from './module.ts';
import { DRUGS } from '../drugs.ts';
import { YEAR } from '../time.ts';

export const gerd = simpleChronic({
  key: 'gerd', title: 'GERD', specialty: 'gastroenterology', referred: false,
  condition: { icd: 'K21.9', snomed: '235595009', text: 'Gastroesophageal reflux disease' },
  // ~20% weekly symptoms (AGA); diagnosed/treated ~10%, obesity raises it.
  prevalence: (c) => byAge(c.age, [0.07, 0.12, 0.15]) * (c.bmi > 30 ? 1.4 : 0.9), minAge: 18, maxYears: 10,
  drugs: [DRUGS.omeprazole20], followUpMonths: 12,
  plan: ['PPI for 8 weeks then lowest effective dose.', 'Avoid late meals; raise head of bed.'],
});

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

export const crohns = simpleChronic({
  key: 'crohns', title: "Crohn's disease", specialty: 'gastroenterology',
  condition: { icd: 'K50.90', snomed: '34000006', text: "Crohn's disease" },
  // IBD ~1.3% of US adults (CDC), roughly half Crohn's.
  prevalence: (c) => byAge(c.age, [0.006, 0.006, 0.004]), minAge: 15, maxYears: 15,
  drugs: [DRUGS.prednisone20], monitor: ['CBC', 'CMP'], followUpMonths: 6,
  workup: (c, v) => c.procedure(v, '73761001', 'patchy ileal ulceration; biopsies consistent with Crohn disease'),
  plan: ['Steroid taper then maintenance therapy; biologic if steroid-dependent.', 'Smoking cessation; iron and B12 monitoring.'],
});

export const ulcerativeColitis = simpleChronic({
  key: 'ulcerativeColitis', title: 'Ulcerative colitis', specialty: 'gastroenterology',
  condition: { icd: 'K51.90', snomed: '64766004', text: 'Ulcerative colitis' },
  prevalence: (c) => byAge(c.age, [0.006, 0.007, 0.005]), minAge: 15, maxYears: 15,
  drugs: [DRUGS.mesalamine], monitor: ['CBC', 'CMP'], followUpMonths: 6,
  workup: (c, v) => c.procedure(v, '73761001', 'continuous mucosal inflammation from rectum to sigmoid colon'),
  plan: ['Oral mesalamine maintenance.', 'Surveillance colonoscopy 8 years after diagnosis.'],
});
