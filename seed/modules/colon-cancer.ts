// Colon cancer (oncology): colonoscopy and biopsy with pathology report; surveillance.
import { byAge, simpleChronic } from './module.ts';

export const colonCancer = simpleChronic({
  key: 'colonCancer', title: 'Colon cancer', specialty: 'oncology',
  condition: { icd: 'C18.9', snomed: '363406005', text: 'Malignant neoplasm of colon' },
  // SEER: ~1.4 million survivors of colorectal cancer (~0.4% of the population; 65+ ~1.5%).
  prevalence: (c) => byAge(c.age, [0.0005, 0.004, 0.015]), minAge: 40, maxYears: 8,
  monitor: ['CBC', 'CMP'], followUpMonths: 6,
  workup: (c, v) => {
    c.procedure(v, '73761001', 'ulcerated mass in the sigmoid colon, biopsied');
    c.pathology(v, 'sigmoid colon', 'Invasive adenocarcinoma, moderately differentiated; mismatch repair proteins intact.');
  },
  plan: ['Surgical resection; adjuvant chemotherapy for stage III.', 'CEA and CT surveillance; colonoscopy at 1 year.'],
});
