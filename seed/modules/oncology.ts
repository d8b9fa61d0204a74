// Oncology: breast, colon and prostate cancer (history of diagnosis and treatment, surveillance visits).
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

export const prostateCancer = simpleChronic({
  key: 'prostateCancer', title: 'Prostate cancer', specialty: 'urology',
  condition: { icd: 'C61', snomed: '399068003', text: 'Malignant neoplasm of prostate' },
  // SEER: ~3.5 million survivors (~2% of men; 65+ ~8%).
  prevalence: (c) => (c.female ? 0 : byAge(c.age, [0, 0.015, 0.08])), minAge: 45, maxYears: 10,
  monitor: ['CMP'], followUpMonths: 6,
  workup: (c, v) => c.pathology(v, 'prostate', `Prostatic adenocarcinoma, Gleason score 3+${c.rng.pick(['3', '4'])}, in ${c.rng.int(2, 5)} of 12 cores.`),
  plan: ['Active surveillance with PSA every 6 months for low-risk disease.', 'Discuss radiation or prostatectomy if progression.'],
});

export const lungCancer = simpleChronic({
  key: 'lungCancer', title: 'Lung cancer', specialty: 'oncology',
  condition: { icd: 'C34.90', snomed: '363358000', text: 'Malignant neoplasm of lung' },
  // SEER: ~0.2% of the population are lung cancer survivors, almost all current or former smokers over 55.
  prevalence: (c) => byAge(c.age, [0, 0.002, 0.008]) * (c.smoking === 'current' ? 4 : c.smoking === 'former' ? 2.5 : 0.2), minAge: 45, maxYears: 5,
  monitor: ['CBC', 'CMP'], followUpMonths: 3,
  workup: (c, v) => {
    c.imaging(v, '399208008', { table: 'LOINC', code: '36643-5' }, 'Spiculated 2.6 cm right upper lobe mass. Recommend CT chest.', 'persistent cough and weight loss');
    c.pathology(v, 'right upper lobe lung', 'Non-small cell carcinoma, adenocarcinoma type; EGFR and ALK testing pending.');
  },
  plan: ['Multidisciplinary tumor board; staging PET-CT and brain MRI.', 'Smoking cessation; palliative care introduction.'],
});
