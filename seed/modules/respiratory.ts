// Pulmonology and allergy: COPD (spirometry FEV1/FVC < 0.7, LAMA + rescue inhaler, GOLD 2024), asthma (ICS + SABA,
// GINA), allergic rhinitis.

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

export const asthma = simpleChronic({
  key: 'asthma', title: 'Asthma', specialty: 'pulmonology',
  condition: { icd: 'J45.909', snomed: '195967001', text: 'Asthma' },
  // CDC 2021: current asthma 8.0% of adults (women ~10%, men ~6%), 6.5% of children.
  prevalence: (c) => byAge(c.age, [0.08, 0.085, 0.075], 0.065) * (c.female ? 1.2 : 0.8), minAge: 3, maxYears: 20,
  drugs: [DRUGS.fluticasone], followUpMonths: 12,
  workup: (c, v) => { c.procedure(v, '127783003', `FEV1 ${c.rng.int(65, 85)}% predicted, 15% improvement after bronchodilator`); c.prescribe(DRUGS.albuterol, v, { indication: 'asthma' }); },
  plan: ['Inhaled corticosteroid daily plus rescue albuterol.', 'Written asthma action plan; trigger avoidance.'],
});

export const allergicRhinitis = simpleChronic({
  key: 'allergicRhinitis', title: 'Allergic rhinitis', specialty: 'allergy', referred: false,
  condition: { icd: 'J30.9', snomed: '61582004', text: 'Allergic rhinitis' },
  // CDC NHIS 2021: hay fever diagnosed in ~7.8% of adults.
  prevalence: (c) => byAge(c.age, [0.08, 0.08, 0.06], 0.05), minAge: 5, maxYears: 15, followUpMonths: 24,
  plan: ['Intranasal corticosteroid in season; allergen avoidance.'],
});

