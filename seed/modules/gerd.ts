// Gastroesophageal reflux disease (gastroenterology): proton pump inhibitor.
import { byAge, simpleChronic } from './module.ts';
import { DRUGS } from '../drugs.ts';

export const gerd = simpleChronic({
  key: 'gerd', title: 'GERD', specialty: 'gastroenterology', referred: false,
  condition: { icd: 'K21.9', snomed: '235595009', text: 'Gastroesophageal reflux disease' },
  // ~20% weekly symptoms (AGA); diagnosed/treated ~10%, obesity raises it.
  prevalence: (c) => byAge(c.age, [0.07, 0.12, 0.15]) * (c.bmi > 30 ? 1.4 : 0.9), minAge: 18, maxYears: 10,
  drugs: [DRUGS.omeprazole20], followUpMonths: 12,
  plan: ['PPI for 8 weeks then lowest effective dose.', 'Avoid late meals; raise head of bed.'],
});
