// Asthma (pulmonology): spirometry with reversibility, inhaled corticosteroid + rescue inhaler (GINA).
import { byAge, simpleChronic } from './module.ts';
import { DRUGS } from '../drugs.ts';

export const asthma = simpleChronic({
  key: 'asthma', title: 'Asthma', specialty: 'pulmonology',
  condition: { icd: 'J45.909', snomed: '195967001', text: 'Asthma' },
  // CDC 2021: current asthma 8.0% of adults (women ~10%, men ~6%), 6.5% of children.
  prevalence: (c) => byAge(c.age, [0.08, 0.085, 0.075], 0.065) * (c.female ? 1.2 : 0.8), minAge: 3, maxYears: 20,
  drugs: [DRUGS.fluticasone], followUpMonths: 12,
  workup: (c, v) => { c.procedure(v, '127783003', `FEV1 ${c.rng.int(65, 85)}% predicted, 15% improvement after bronchodilator`); c.prescribe(DRUGS.albuterol, v, { indication: 'asthma' }); },
  plan: ['Inhaled corticosteroid daily plus rescue albuterol.', 'Written asthma action plan; trigger avoidance.'],
});
