// Crohn's disease (gastroenterology): colonoscopy at diagnosis, steroid course.
import { byAge, simpleChronic } from './module.ts';
import { DRUGS } from '../drugs.ts';

export const crohns = simpleChronic({
  key: 'crohns', title: "Crohn's disease", specialty: 'gastroenterology',
  condition: { icd: 'K50.90', snomed: '34000006', text: "Crohn's disease" },
  // IBD ~1.3% of US adults (CDC), roughly half Crohn's.
  prevalence: (c) => byAge(c.age, [0.006, 0.006, 0.004]), minAge: 15, maxYears: 15,
  drugs: [DRUGS.prednisone20], monitor: ['CBC', 'CMP'], followUpMonths: 6,
  workup: (c, v) => c.procedure(v, '73761001', 'patchy ileal ulceration; biopsies consistent with Crohn disease'),
  plan: ['Steroid taper then maintenance therapy; biologic if steroid-dependent.', 'Smoking cessation; iron and B12 monitoring.'],
});
