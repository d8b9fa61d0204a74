// Epilepsy (neurology): levetiracetam.
import { byAge, simpleChronic } from './module.ts';
import { DRUGS } from '../drugs.ts';

export const epilepsy = simpleChronic({
  key: 'epilepsy', title: 'Epilepsy', specialty: 'neurology',
  condition: { icd: 'G40.909', snomed: '84757009', text: 'Epilepsy' },
  // CDC: active epilepsy 1.2% of the population.
  prevalence: (c) => byAge(c.age, [0.011, 0.012, 0.013], 0.006), minAge: 2, maxYears: 25,
  drugs: [DRUGS.levetiracetam500], monitor: ['CBC'], followUpMonths: 6,
  plan: ['Levetiracetam twice daily; seizure diary.', 'No driving until seizure-free per state law; seizure precautions.'],
});
