// Psoriasis (dermatology).
import { byAge, simpleChronic } from './module.ts';

export const psoriasis = simpleChronic({
  key: 'psoriasis', title: 'Psoriasis', specialty: 'dermatology',
  condition: { icd: 'L40.0', snomed: '9014002', text: 'Psoriasis vulgaris' },
  // ~3% of US adults (Armstrong, JAMA Dermatol 2021).
  prevalence: (c) => byAge(c.age, [0.025, 0.035, 0.03]), minAge: 12, maxYears: 20, followUpMonths: 12,
  plan: ['Topical corticosteroid and vitamin D analogue.', 'Phototherapy or systemic therapy if over 10% body surface area.'],
});
