// Chronic hepatitis C (infectious disease): raised ALT; antiviral course.
import { byAge, simpleChronic } from './module.ts';

export const hepatitisC = simpleChronic({
  key: 'hepatitisC', title: 'Chronic hepatitis C', specialty: 'infectiousDisease',
  condition: { icd: 'B18.2', snomed: '128302006', text: 'Chronic hepatitis C' },
  // CDC: ~2.2 million (~0.9% of adults), peak in people born 1945-1965.
  prevalence: (c) => byAge(c.age, [0.006, 0.015, 0.01]), minAge: 18, maxYears: 10,
  monitor: ['CMP', 'CBC'], followUpMonths: 6,
  effects: (c, onset) => c.modify('ALT', (t, v) => (t >= onset ? v * 2.2 : v)),
  plan: ['Direct-acting antiviral course for 8-12 weeks; SVR12 viral load.', 'Hepatitis A and B vaccination; alcohol avoidance.'],
});
