// Tobacco use (primary care): decided first, a risk factor every later module reads.
import type { ClinicalModule } from './module.ts';
import { YEAR } from '../time.ts';

export const smoking: ClinicalModule = {
  key: 'smoking', title: 'Tobacco use', specialty: 'primaryCare',
  // CDC 2021: 11.5% of adults smoke cigarettes; ~22% are former smokers (more with age).
  onset(chart) {
    if (chart.age < 18) return undefined;
    const former = chart.age >= 65 ? 0.33 : chart.age >= 45 ? 0.24 : 0.12;
    chart.smoking = chart.rng.weighted([['current', chart.age < 65 ? 0.13 : 0.08], ['former', former], ['never', 1 - former - 0.12]] as const);
    return chart.smoking === 'current' ? chart.birth + chart.rng.between(16, 22) * YEAR : undefined;
  },
  run() {},
};
