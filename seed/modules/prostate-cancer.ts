// Prostate cancer (urology): biopsy with Gleason score; active surveillance.
import { byAge, simpleChronic } from './module.ts';

export const prostateCancer = simpleChronic({
  key: 'prostateCancer', title: 'Prostate cancer', specialty: 'urology',
  condition: { icd: 'C61', snomed: '399068003', text: 'Malignant neoplasm of prostate' },
  // SEER: ~3.5 million survivors (~2% of men; 65+ ~8%).
  prevalence: (c) => (c.female ? 0 : byAge(c.age, [0, 0.015, 0.08])), minAge: 45, maxYears: 10,
  monitor: ['CMP'], followUpMonths: 6,
  workup: (c, v) => c.pathology(v, 'prostate', `Prostatic adenocarcinoma, Gleason score 3+${c.rng.pick(['3', '4'])}, in ${c.rng.int(2, 5)} of 12 cores.`),
  plan: ['Active surveillance with PSA every 6 months for low-risk disease.', 'Discuss radiation or prostatectomy if progression.'],
});
