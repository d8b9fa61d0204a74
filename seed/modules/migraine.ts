// Migraine (neurology): triptan (NSAID when triptan-allergic).
import { byAge, simpleChronic } from './module.ts';
import { DRUGS } from '../drugs.ts';

export const migraine = simpleChronic({
  key: 'migraine', title: 'Migraine', specialty: 'neurology', referred: false,
  condition: { icd: 'G43.909', snomed: '37796009', text: 'Migraine' },
  // NHIS: ~15% of adults report migraine/severe headache (women 21%, men 10%); diagnosed ~9%.
  prevalence: (c) => byAge(c.age, [0.1, 0.08, 0.04], 0.02) * (c.female ? 1.5 : 0.5), minAge: 12, maxYears: 20,
  drugs: [DRUGS.sumatriptan50, DRUGS.ibuprofen], followUpMonths: 12,
  plan: ['Triptan at onset; limit acute medication to under 10 days a month.', 'Headache diary; preventive therapy if 4 or more headache days a month.'],
});
