// The clinical modules, in run order. Order matters: risk factors and allergies first (later onsets and prescriptions
// read them), kidney disease before diabetes (metformin depends on eGFR), and preventive care last so its yearly labs
// see every disease's and drug's effect on the physiology.
import type { ClinicalModule } from './module.ts';
import { allergies } from './allergies.ts';
import { smoking, wellness } from './wellness.ts';
import { hypertension } from './hypertension.ts';
import { hyperlipidemia } from './hyperlipidemia.ts';
import { ckd } from './ckd.ts';
import { diabetes } from './diabetes.ts';
import { atrialFibrillation, coronaryDisease, heartFailure } from './cardiac.ts';
import { hyperthyroidism, hypothyroidism } from './thyroid.ts';
import { allergicRhinitis, asthma, copd } from './respiratory.ts';
import { anxiety, bipolar, depression } from './mental-health.ts';
import { anemia, venousThromboembolism } from './hematology.ts';
import { gout, lupus, osteoporosis, rheumatoidArthritis } from './musculoskeletal.ts';
import { cirrhosis, crohns, gerd, ulcerativeColitis } from './digestive.ts';
import { dementia, epilepsy, migraine } from './neurology.ts';
import { breastCancer, colonCancer, lungCancer, prostateCancer } from './oncology.ts';
import { bph, hepatitisC, hiv, obesity, pregnancy, psoriasis } from './other-chronic.ts';
import { acuteInfections } from './acute-infections.ts';

export type { ClinicalModule } from './module.ts';

export const MODULES: readonly ClinicalModule[] = [
  allergies, smoking, obesity,
  hypertension, hyperlipidemia, hepatitisC, ckd, diabetes, coronaryDisease, heartFailure, atrialFibrillation,
  hypothyroidism, hyperthyroidism, copd, asthma, allergicRhinitis, depression, anxiety, bipolar,
  anemia, venousThromboembolism, osteoporosis, gout, rheumatoidArthritis, lupus,
  gerd, cirrhosis, crohns, ulcerativeColitis, migraine, epilepsy, dementia,
  breastCancer, colonCancer, prostateCancer, lungCancer, hiv, psoriasis, bph, pregnancy, acuteInfections,
  wellness,
];

/**
 * Order of the onset phase: like MODULES, but causes before their consequences (diabetes before the kidney disease
 * and coronary disease it makes likelier; cancers before venous thromboembolism).
 */
const ONSET_FIRST = ['allergies', 'smoking', 'obesity', 'hypertension', 'diabetes', 'hyperlipidemia', 'hepatitisC', 'breastCancer', 'colonCancer'];
export const ONSET_ORDER: readonly ClinicalModule[] = [
  ...ONSET_FIRST.map((k) => MODULES.find((m) => m.key === k)!),
  ...MODULES.filter((m) => !ONSET_FIRST.includes(m.key)),
];
