// Clinical facts of the CKD e-consult, shared by the grader and the reference solution as data only: which results
// and problems count, the KDIGO 2024 category thresholds, which drugs are RAAS blockers and SGLT2 inhibitors, and
// the eGFR floor for starting an SGLT2 inhibitor. Each side reads the chart and decides with its own code.

export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const ICD10 = 'http://hl7.org/fhir/sid/icd-10-cm';
export const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

export const EGFR = [{ system: LOINC, codes: ['33914-3', '62238-1', '48642-3', '98979-8'] }, { system: FLOWSHEET, codes: ['EGFR'] }];
export const UACR = [{ system: LOINC, codes: ['14959-1', '9318-7', '32294-1'] }, { system: FLOWSHEET, codes: ['UACR'] }];
export const POTASSIUM = [{ system: LOINC, codes: ['2823-3', '6298-4'] }, { system: FLOWSHEET, codes: ['K'] }];
export const CKD = [{ system: SNOMED, codes: ['433144002', '431857002', '700378005', '433146000', '709044004', '431855005', '431856006'] }];
export const TYPE_2_DIABETES = [{ system: SNOMED, codes: ['44054006'] }, { system: ICD10, codes: ['E11.9', 'E11.22', 'E11.65', 'E11.8'] }];
export const HEART_FAILURE = [{ system: SNOMED, codes: ['84114007', '42343007', '703272007', '446221000'] }, { system: ICD10, codes: ['I50.9', 'I50.22', 'I50.32', 'I50.42'] }];

/** KDIGO 2024 GFR categories (mL/min/1.73 m2): each category with its lower bound, highest first. */
export const G_CATEGORIES: [number, string][] = [[90, 'G1'], [60, 'G2'], [45, 'G3a'], [30, 'G3b'], [15, 'G4'], [0, 'G5']];
/** KDIGO 2024 albuminuria categories (UACR mg/g): A1 < 30, A2 30-300, A3 > 300. */
export const A2_FROM = 30;
export const A3_ABOVE = 300;

/** RAAS blockers (graders/lib/drug-classes.ts class ids). */
export const RAAS_CLASSES = ['ace-inhibitor', 'arb'];
export const SGLT2_CLASS = 'sglt2-inhibitor';

/**
 * KDIGO 2024 Rec 3.7.1 (1A): treat adults with CKD with an SGLT2 inhibitor when eGFR >= 20 with UACR >= 200 mg/g or
 * heart failure, and (with the 2022 diabetes guideline) with type 2 diabetes; Rec 3.7.2 (2B): suggested for eGFR
 * 20-45 with UACR < 200. Practice point 3.7.3: do not start below eGFR 20 (continue one already taken).
 */
export const SGLT2_START_MIN_EGFR = 20;
export const SGLT2_STRONG_UACR = 200;

/** How SGLT2 inhibitors are named in prose. */
export const SGLT2_NAMES = ['SGLT2 inhibitor', 'SGLT2 inhibitors', 'SGLT-2 inhibitor', 'SGLT-2 inhibitors', 'SGLT2i', 'SGLT2', 'SGLT-2', 'gliflozin', 'empagliflozin', 'jardiance', 'dapagliflozin', 'farxiga', 'canagliflozin', 'invokana'];
