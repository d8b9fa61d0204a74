// Generalized anxiety disorder (psychiatry): SSRI and CBT.
import { byAge, simpleChronic } from './module.ts';
import { DRUGS } from '../drugs.ts';

export const anxiety = simpleChronic({
  key: 'anxiety', title: 'Generalized anxiety disorder', specialty: 'psychiatry',
  condition: { icd: 'F41.1', snomed: '21897009', text: 'Generalized anxiety disorder' },
  // NIMH: GAD 2.7% past-year; diagnosed anxiety in primary care ~6%; women ~2x.
  prevalence: (c) => byAge(c.age, [0.07, 0.06, 0.04]) * (c.female ? 1.4 : 0.6), minAge: 16, maxYears: 10,
  drugs: [DRUGS.escitalopram10], followUpMonths: 6,
  plan: ['SSRI and cognitive behavioral therapy.', 'GAD-7 at each visit.'],
});
