// COPD (pulmonology): spirometry FEV1/FVC < 0.7, chest X-ray, LAMA + rescue inhaler (GOLD 2024); mostly smokers.
import { byAge, simpleChronic } from './module.ts';
import { DRUGS } from '../drugs.ts';

export const copd = simpleChronic({
  key: 'copd', title: 'COPD', specialty: 'pulmonology',
  condition: { icd: 'J44.9', snomed: '13645005', text: 'Chronic obstructive pulmonary disease' },
  // CDC BRFSS 2021: 4.6% of adults; mostly current/former smokers, rising with age.
  prevalence: (c) => byAge(c.age, [0.008, 0.035, 0.06]) * (c.smoking === 'current' ? 3 : c.smoking === 'former' ? 2 : 0.3), minAge: 40, maxYears: 12,
  drugs: [DRUGS.tiotropium], followUpMonths: 6,
  effects: (c, onset) => c.modify('SPO2', (t, v) => (t >= onset ? v - 3 : v)),
  workup: (c, v) => {
    c.procedure(v, '127783003', `post-bronchodilator FEV1/FVC ${(0.5 + c.rng.next() * 0.18).toFixed(2)}, FEV1 ${c.rng.int(45, 75)}% predicted`);
    c.imaging(v, '399208008', { table: 'LOINC', code: '36643-5' }, 'Hyperinflated lungs with flattened diaphragms. No focal consolidation.', 'chronic dyspnea and cough');
    c.prescribe(DRUGS.albuterol, v, { indication: 'copd' });
  },
  plan: ['Smoking cessation counselling.', 'Long-acting antimuscarinic inhaler plus rescue albuterol.', 'Pulmonary rehabilitation; influenza, pneumococcal and COVID-19 vaccination.'],
});
