// Deep vein thrombosis (hematology): anticoagulation for 3-6 months; cancer raises the risk.
import { byAge, simpleChronic } from './module.ts';
import { DRUGS } from '../drugs.ts';

export const venousThromboembolism = simpleChronic({
  key: 'vte', title: 'Deep vein thrombosis', specialty: 'hematology', referred: false,
  condition: { icd: 'I82.409', snomed: '128053003', text: 'Deep vein thrombosis of lower extremity' },
  // ~1-2 per 1000 per year (CDC); history prevalence ~1%, higher with age and cancer.
  prevalence: (c, planned) => byAge(c.age, [0.004, 0.01, 0.025]) * (planned.has('breastCancer') || planned.has('colonCancer') ? 3 : 1), minAge: 18, maxYears: 4,
  drugs: [DRUGS.apixaban5], monitor: ['CBC'], followUpMonths: 3, resolvesAfterYears: 0.5,
  plan: ['Anticoagulation for 3-6 months, then reassess.', 'Compression stockings for symptoms.'],
});
