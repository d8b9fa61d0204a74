// Lung cancer (oncology): chest imaging and biopsy with pathology report; mostly current or former smokers.
import { byAge, simpleChronic } from './module.ts';

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
