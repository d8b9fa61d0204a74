// Systemic lupus erythematosus (rheumatology): hydroxychloroquine, nephritis monitoring.
import { byAge, simpleChronic } from './module.ts';
import { DRUGS } from '../drugs.ts';

export const lupus = simpleChronic({
  key: 'lupus', title: 'Systemic lupus erythematosus', specialty: 'rheumatology',
  condition: { icd: 'M32.9', snomed: '55464009', text: 'Systemic lupus erythematosus' },
  // ~0.1% (CDC), 90% women.
  prevalence: (c) => byAge(c.age, [0.002, 0.0015, 0.001]) * (c.female ? 1.8 : 0.2), minAge: 16, maxYears: 15,
  drugs: [DRUGS.hydroxychloroquine200], monitor: ['CBC', 'CMP', 'UACR'], followUpMonths: 4,
  plan: ['Hydroxychloroquine; yearly retinal screening.', 'Monitor for nephritis (urine albumin, creatinine).'],
});
