// Obesity on the problem list (primary care) for patients with BMI >= 30.
import { simpleChronic } from './module.ts';

export const obesity = simpleChronic({
  key: 'obesity', title: 'Obesity', specialty: 'primaryCare', referred: false,
  condition: { icd: 'E66.9', snomed: '414916001', text: 'Obesity' },
  // Recorded on the problem list for most patients with BMI >= 30 (NHANES 2017-2020 adult prevalence 41.9%).
  prevalence: (c) => (c.age >= 18 && c.bmi >= 30 ? 0.75 : 0), minAge: 18, maxYears: 10, followUpMonths: 12,
  plan: ['Nutrition counselling and 150 minutes a week of physical activity.', 'Consider pharmacotherapy if BMI over 30 after lifestyle change.'],
});
