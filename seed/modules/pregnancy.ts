// Pregnancy (obstetrics, women's health): prenatal visits; resolves after delivery.
import { simpleChronic } from './module.ts';

export const pregnancy = simpleChronic({
  key: 'pregnancy', title: 'Pregnancy', specialty: 'obstetrics', referred: false,
  condition: { icd: 'Z34.90', snomed: '77386006', text: 'Pregnancy' },
  // ~3.6 million births a year: about 5% of women 18-44 are pregnant at any time; history window 2 years.
  prevalence: (c) => (c.female && c.age >= 18 && c.age < 45 ? 0.1 : 0), minAge: 18, maxYears: 2,
  monitor: ['CBC'], followUpMonths: 1.5, resolvesAfterYears: 0.75,
  plan: ['Prenatal vitamins; prenatal visits monthly to 28 weeks, then every 2 weeks.', 'Glucose challenge at 24-28 weeks; Tdap at 27-36 weeks.'],
});
