// Alzheimer's disease (geriatrics): cognitive screening, TSH to exclude a reversible cause, cholinesterase inhibitor.
import { simpleChronic } from './module.ts';
import { DRUGS } from '../drugs.ts';

export const dementia = simpleChronic({
  key: 'dementia', title: "Alzheimer's disease", specialty: 'geriatrics',
  condition: { icd: 'G30.9', snomed: '26929004', text: "Alzheimer's disease" },
  // Alzheimer's Association 2024: ~11% of people 65+.
  prevalence: (c) => (c.age < 65 ? 0 : c.age < 75 ? 0.05 : c.age < 85 ? 0.13 : 0.33), minAge: 60, maxYears: 8,
  drugs: [DRUGS.donepezil10], monitor: ['CMP'], followUpMonths: 6,
  workup: (c, v) => { c.test(v, 'TSH'); v.results.push(`MoCA ${c.rng.int(14, 23)}/30`); },
  plan: ['Cholinesterase inhibitor.', 'Caregiver support; advance care planning; home safety review.'],
});
