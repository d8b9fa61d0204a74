// Breast cancer (oncology): diagnostic mammogram and biopsy with pathology report; survivorship follow-up.
import { byAge, simpleChronic } from './module.ts';

export const breastCancer = simpleChronic({
  key: 'breastCancer', title: 'Breast cancer', specialty: 'oncology',
  condition: { icd: 'C50.911', snomed: '254837009', text: 'Malignant neoplasm of right female breast' },
  // NCI SEER: ~4 million US women with a history of breast cancer (~2.5% of women; 65+ ~7%).
  prevalence: (c) => (c.female ? byAge(c.age, [0.003, 0.025, 0.07]) : 0), minAge: 30, maxYears: 10,
  monitor: ['CBC', 'CMP'], followUpMonths: 6,
  workup: (c, v) => {
    c.imaging(v, '71651007', { table: 'SNOMED', code: '71651007' }, 'Irregular spiculated 1.8 cm mass, right breast upper outer quadrant. BI-RADS 5.', 'palpable right breast mass');
    c.pathology(v, 'right breast', 'Invasive ductal carcinoma, grade 2; ER positive, PR positive, HER2 negative.');
  },
  plan: ['Lumpectomy with sentinel node biopsy, then adjuvant radiation.', 'Endocrine therapy for hormone-receptor-positive disease; survivorship care plan.'],
});
