// Allergic rhinitis (allergy and immunology).
import { byAge, simpleChronic } from './module.ts';

export const allergicRhinitis = simpleChronic({
  key: 'allergicRhinitis', title: 'Allergic rhinitis', specialty: 'allergy', referred: false,
  condition: { icd: 'J30.9', snomed: '61582004', text: 'Allergic rhinitis' },
  // CDC NHIS 2021: hay fever diagnosed in ~7.8% of adults.
  prevalence: (c) => byAge(c.age, [0.08, 0.08, 0.06], 0.05), minAge: 5, maxYears: 15, followUpMonths: 24,
  plan: ['Intranasal corticosteroid in season; allergen avoidance.'],
});
