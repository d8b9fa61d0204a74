// HIV infection (infectious disease): antiretroviral therapy, 6-monthly monitoring.
import { byAge, simpleChronic } from './module.ts';
import { DRUGS } from '../drugs.ts';

export const hiv = simpleChronic({
  key: 'hiv', title: 'HIV infection', specialty: 'infectiousDisease',
  condition: { icd: 'B20', snomed: '86406008', text: 'Human immunodeficiency virus infection' },
  // CDC: ~1.2 million people with HIV (~0.4%), men ~4x.
  prevalence: (c) => byAge(c.age, [0.004, 0.006, 0.003]) * (c.female ? 0.4 : 1.6), minAge: 18, maxYears: 15,
  drugs: [DRUGS.dolutegravir], monitor: ['CBC', 'CMP'], followUpMonths: 6,
  plan: ['Antiretroviral therapy; viral load and CD4 every 6 months.', 'Vaccinations and STI screening per guidelines.'],
});
