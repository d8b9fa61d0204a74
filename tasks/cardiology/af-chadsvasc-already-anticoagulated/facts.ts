// Clinical facts of the AF stroke-prevention task, shared by the grader and the reference solution as data only:
// what scores in CHA2DS2-VASc, when anticoagulation is indicated, which drugs are oral anticoagulants and other
// antithrombotics, and the label doses of each oral anticoagulant. Each side computes the score, the creatinine
// clearance and the dose from these facts with its own code, so the oracle can catch an error in the grader.

export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
export const SNOMED = 'http://snomed.info/sct';
export const ICD10CM = 'http://hl7.org/fhir/sid/icd-10-cm';
export const LOINC = 'http://loinc.org';
export const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

/** One CHA2DS2-VASc item scored from the problem list: SNOMED codes, or ICD-10-CM codes by prefix. */
export interface ScoredCondition {
  item: string;
  points: number;
  snomed: string[];
  icd10Prefixes: string[];
}

/**
 * CHA2DS2-VASc (Lip GY et al., Chest 2010;137:263-272), the items read from coded problems. Vascular disease is
 * prior myocardial infarction, peripheral artery disease or aortic plaque: coronary artery disease without an
 * infarction does not score (I25.10 / SNOMED 53741008 are deliberately absent; I25.2 is an old infarction).
 * Thromboembolism is arterial (systemic embolism), not venous thromboembolism.
 */
export const SCORED_CONDITIONS: ScoredCondition[] = [
  { item: 'congestive heart failure', points: 1, snomed: ['84114007', '42343007', '85232009', '703272007', '417996009', '446221000', '10633002'], icd10Prefixes: ['I50', 'I11.0', 'I13.0', 'I13.2'] },
  { item: 'hypertension', points: 1, snomed: ['38341003', '59621000', '1201005', '10725009'], icd10Prefixes: ['I10', 'I11', 'I12', 'I13', 'I15', 'I16'] },
  { item: 'diabetes mellitus', points: 1, snomed: ['73211009', '44054006', '46635009'], icd10Prefixes: ['E08', 'E09', 'E10', 'E11', 'E13'] },
  { item: 'stroke, TIA or thromboembolism', points: 2, snomed: ['230690007', '422504002', '432504007', '266257000'], icd10Prefixes: ['I63', 'G45', 'Z86.73', 'I69.3', 'I74'] },
  { item: 'vascular disease (prior MI, PAD, aortic plaque)', points: 1, snomed: ['22298006', '1755008', '399211009', '399957001', '840580004'], icd10Prefixes: ['I21', 'I22', 'I25.2', 'I70', 'I73.9'] },
];

/** Age points: 2 at 75 or older, 1 at 65-74. Female sex: 1 point. */
export const AGE_POINTS = [{ atLeast: 75, points: 2 }, { atLeast: 65, points: 1 }];
export const FEMALE_POINTS = 1;

/**
 * 2023 ACC/AHA/ACCP/HRS AF guideline, section 6.1-6.3: oral anticoagulation is recommended (COR 1) at an annual
 * stroke risk >= 2 %, i.e. CHA2DS2-VASc >= 2 in men or >= 3 in women; at 0 (men) / 1 (women) the risk is low and
 * anticoagulation is not indicated. The scores in between (1 in men, 2 in women) are a shared decision (COR 2a/2b):
 * either answer is defensible, so no variant sits there.
 */
export const INDICATED_AT = { male: 2, female: 3 };
export const NOT_INDICATED_AT_MOST = { male: 0, female: 1 };

export interface Drug {
  /** The ingredient as graders/lib/drug-classes.ts names it (its brands and other names are the drug vocabulary's). */
  name: string;
  /** RxNorm ingredient RXCUIs (and the salt form where RxNorm has one). */
  ingredients: string[];
}

/** Oral anticoagulants for stroke prevention in AF. */
export const ORAL_ANTICOAGULANTS: Drug[] = [
  { name: 'apixaban', ingredients: ['1364430'] },
  { name: 'rivaroxaban', ingredients: ['1114195'] },
  { name: 'dabigatran', ingredients: ['1546356', '1037042'] },
  { name: 'edoxaban', ingredients: ['1599538'] },
  { name: 'warfarin', ingredients: ['11289'] },
];

/**
 * Other antithrombotics: an antiplatelet is no substitute for anticoagulation in AF (2023 guideline: aspirin
 * monotherapy for stroke prevention is not recommended, COR 3: harm), and added to an anticoagulant it raises
 * bleeding; a parenteral anticoagulant on top of an oral one is a duplicate.
 */
export const OTHER_ANTITHROMBOTICS: Drug[] = [
  { name: 'aspirin', ingredients: ['1191'] },
  { name: 'clopidogrel', ingredients: ['32968'] },
  { name: 'prasugrel', ingredients: ['613391'] },
  { name: 'ticagrelor', ingredients: ['1116632'] },
  { name: 'heparin', ingredients: ['5224'] },
  { name: 'enoxaparin', ingredients: ['67108'] },
  { name: 'dalteparin', ingredients: ['67109'] },
  { name: 'fondaparinux', ingredients: ['321208'] },
];

/** A dose by creatinine clearance band (Cockcroft-Gault, actual body weight, x0.85 for women). */
export interface ClearanceBand {
  /** The band applies when CrCl (mL/min) is above this value. */
  crclAbove: number;
  /** undefined: the drug is not to be used in this band. */
  mg?: number;
  timesPerDay: number;
}

/**
 * Label doses for nonvalvular AF (US prescribing information, section 2), first matching band wins:
 * - apixaban (ELIQUIS PI 2.2): 5 mg twice daily; 2.5 mg twice daily when at least 2 of age >= 80 y, weight <= 60 kg,
 *   serum creatinine >= 1.5 mg/dL;
 * - rivaroxaban (XARELTO PI 2.3): CrCl > 50: 20 mg once daily with the evening meal; 15-50: 15 mg once daily;
 * - dabigatran (PRADAXA PI 2.2): CrCl > 30: 150 mg twice daily; 15-30: 75 mg twice daily;
 * - edoxaban (SAVAYSA PI 2.1): CrCl > 95: do not use; 51-95: 60 mg once daily; 15-50: 30 mg once daily;
 * - warfarin: titrated to INR 2.0-3.0; a starting dose of 1-10 mg once daily.
 */
export const APIXABAN_LABEL = { standardMg: 5, reducedMg: 2.5, timesPerDay: 2, reduceWhenAtLeast: 2, ageAtLeast: 80, weightAtMostKg: 60, creatinineAtLeastMgDl: 1.5 };
export const CLEARANCE_DOSED: Record<string, ClearanceBand[]> = {
  rivaroxaban: [{ crclAbove: 50, mg: 20, timesPerDay: 1 }, { crclAbove: 15, mg: 15, timesPerDay: 1 }, { crclAbove: -1, timesPerDay: 1 }],
  dabigatran: [{ crclAbove: 30, mg: 150, timesPerDay: 2 }, { crclAbove: 15, mg: 75, timesPerDay: 2 }, { crclAbove: -1, timesPerDay: 2 }],
  edoxaban: [{ crclAbove: 95, timesPerDay: 1 }, { crclAbove: 50, mg: 60, timesPerDay: 1 }, { crclAbove: 15, mg: 30, timesPerDay: 1 }, { crclAbove: -1, timesPerDay: 1 }],
};
export const WARFARIN_START = { minMg: 1, maxMg: 10, timesPerDay: 1 };

/** Chart codes for the dosing inputs. */
export const CREATININE = [{ system: LOINC, codes: ['2160-0', '38483-4'] }, { system: FLOWSHEET, codes: ['CREAT'] }];
export const BODY_WEIGHT = [{ system: LOINC, codes: ['29463-7', '3141-9'] }, { system: FLOWSHEET, codes: ['WEIGHT', 'WT'] }];
