// The clinical modules, in run order. Order matters: risk factors and allergies first (later onsets and prescriptions
// read them), kidney disease before diabetes (metformin depends on eGFR), and preventive care last so its yearly labs
// see every disease's and drug's effect on the physiology.
import type { ClinicalModule } from './module.ts';
import { allergies } from './allergies.ts';
import { smoking } from './smoking.ts';
import { wellness } from './wellness.ts';
import { hypertension } from './hypertension.ts';
import { hyperlipidemia } from './hyperlipidemia.ts';
import { ckd } from './ckd.ts';
import { diabetes } from './diabetes.ts';
import { atrialFibrillation } from './atrial-fibrillation.ts';
import { coronaryDisease } from './coronary-disease.ts';
import { heartFailure } from './heart-failure.ts';
import { hyperthyroidism } from './hyperthyroidism.ts';
import { hypothyroidism } from './hypothyroidism.ts';
import { allergicRhinitis } from './allergic-rhinitis.ts';
import { asthma } from './asthma.ts';
import { copd } from './copd.ts';
import { anxiety } from './anxiety.ts';
import { bipolar } from './bipolar.ts';
import { depression } from './depression.ts';
import { anemia } from './anemia.ts';
import { venousThromboembolism } from './venous-thromboembolism.ts';
import { gout } from './gout.ts';
import { lupus } from './lupus.ts';
import { osteoporosis } from './osteoporosis.ts';
import { rheumatoidArthritis } from './rheumatoid-arthritis.ts';
import { cirrhosis } from './cirrhosis.ts';
import { crohns } from './crohns.ts';
import { gerd } from './gerd.ts';
import { ulcerativeColitis } from './ulcerative-colitis.ts';
import { dementia } from './dementia.ts';
import { epilepsy } from './epilepsy.ts';
import { migraine } from './migraine.ts';
import { breastCancer } from './breast-cancer.ts';
import { colonCancer } from './colon-cancer.ts';
import { lungCancer } from './lung-cancer.ts';
import { prostateCancer } from './prostate-cancer.ts';
import { bph } from './bph.ts';
import { hepatitisC } from './hepatitis-c.ts';
import { hiv } from './hiv.ts';
import { obesity } from './obesity.ts';
import { pregnancy } from './pregnancy.ts';
import { psoriasis } from './psoriasis.ts';
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
