// Neurology and geriatrics: migraine, epilepsy, Alzheimer dementia.
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

export const epilepsy = simpleChronic({
  key: 'epilepsy', title: 'Epilepsy', specialty: 'neurology',
  condition: { icd: 'G40.909', snomed: '84757009', text: 'Epilepsy' },
  // CDC: active epilepsy 1.2% of the population.
  prevalence: (c) => byAge(c.age, [0.011, 0.012, 0.013], 0.006), minAge: 2, maxYears: 25,
  drugs: [DRUGS.levetiracetam500], monitor: ['CBC'], followUpMonths: 6,
  plan: ['Levetiracetam twice daily; seizure diary.', 'No driving until seizure-free per state law; seizure precautions.'],
});

export const dementia = simpleChronic({
  key: 'dementia', title: "Alzheimer's disease", specialty: 'geriatrics',
  condition: { icd: 'G30.9', snomed: '26929004', text: "Alzheimer's disease" },
  // Alzheimer's Association 2024: ~11% of people 65+.
  prevalence: (c) => (c.age < 65 ? 0 : c.age < 75 ? 0.05 : c.age < 85 ? 0.13 : 0.33), minAge: 60, maxYears: 8,
  drugs: [DRUGS.donepezil10], monitor: ['CMP'], followUpMonths: 6,
  workup: (c, v) => { c.test(v, 'TSH'); v.results.push(`MoCA ${c.rng.int(14, 23)}/30`); },
  plan: ['Cholinesterase inhibitor.', 'Caregiver support; advance care planning; home safety review.'],
});
