// Rheumatoid arthritis (rheumatology): methotrexate with CBC and liver monitoring.
import { byAge, simpleChronic } from './module.ts';
import { DRUGS } from '../drugs.ts';

export const rheumatoidArthritis = simpleChronic({
  key: 'rheumatoidArthritis', title: 'Rheumatoid arthritis', specialty: 'rheumatology',
  condition: { icd: 'M06.9', snomed: '69896004', text: 'Rheumatoid arthritis' },
  // ~0.6-1% of US adults; women 2-3x.
  prevalence: (c) => byAge(c.age, [0.003, 0.009, 0.015]) * (c.female ? 1.5 : 0.5), minAge: 20, maxYears: 15,
  drugs: [DRUGS.methotrexate25], monitor: ['CBC', 'CMP'], followUpMonths: 4,
  plan: ['Methotrexate weekly with folic acid; CBC and liver tests every 3 months.', 'Treat to target (low disease activity).'],
});
