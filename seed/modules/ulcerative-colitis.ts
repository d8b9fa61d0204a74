// Ulcerative colitis (gastroenterology): colonoscopy at diagnosis, mesalamine maintenance.
import { byAge, simpleChronic } from './module.ts';
import { DRUGS } from '../drugs.ts';

export const ulcerativeColitis = simpleChronic({
  key: 'ulcerativeColitis', title: 'Ulcerative colitis', specialty: 'gastroenterology',
  condition: { icd: 'K51.90', snomed: '64766004', text: 'Ulcerative colitis' },
  prevalence: (c) => byAge(c.age, [0.006, 0.007, 0.005]), minAge: 15, maxYears: 15,
  drugs: [DRUGS.mesalamine], monitor: ['CBC', 'CMP'], followUpMonths: 6,
  workup: (c, v) => c.procedure(v, '73761001', 'continuous mucosal inflammation from rectum to sigmoid colon'),
  plan: ['Oral mesalamine maintenance.', 'Surveillance colonoscopy 8 years after diagnosis.'],
});
