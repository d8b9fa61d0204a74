// Clinical facts of the SGLT2-inhibitor-in-CKD e-consult, shared by the grader and the reference solution as data
// only: which results and problems count, when KDIGO 2024 recommends starting an SGLT2 inhibitor, which agents and
// doses carry kidney-outcome evidence. Each side reads the chart and decides with its own code.

export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const ICD10CM = 'http://hl7.org/fhir/sid/icd-10-cm';
export const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

export const EGFR_RESULTS = [{ system: LOINC, codes: ['33914-3', '62238-1', '98979-8', '48642-3', '48643-1'] }, { system: FLOWSHEET, codes: ['EGFR'] }];
export const UACR_RESULTS = [{ system: LOINC, codes: ['14959-1', '9318-7', '32294-1'] }, { system: FLOWSHEET, codes: ['UACR'] }];
export const POTASSIUM_RESULTS = [{ system: LOINC, codes: ['2823-3', '6298-4', '77142-8'] }, { system: FLOWSHEET, codes: ['K'] }];

/** Chronic kidney disease problems (SNOMED CT): CKD, stages 1-5. */
export const CKD_PROBLEMS = [{ system: SNOMED, codes: ['709044004', '431855005', '431856006', '433144002', '700378005', '700379002', '431857002', '433146000'] }];

/** Problems that change the decision, by SNOMED CT code or ICD-10-CM prefix. */
export const TYPE_2_DIABETES = { snomed: ['44054006'], icd10Prefixes: ['E11'] };
export const TYPE_1_DIABETES = { snomed: ['46635009'], icd10Prefixes: ['E10'] };
export const HEART_FAILURE = { snomed: ['84114007', '42343007', '85232009', '417996009', '441481004', '703272007', '446221000', '10633002'], icd10Prefixes: ['I50'] };

/**
 * KDIGO 2024 CKD guideline, chapter 3.7 (Kidney Int 2024;105(4S):S117-S314):
 * - rec. 3.7.1 (1A): T2D, CKD and eGFR >= 20 -> SGLT2 inhibitor;
 * - rec. 3.7.2 (1A): CKD with eGFR >= 20 and ACR >= 200 mg/g, or heart failure -> SGLT2 inhibitor;
 * - rec. 3.7.3 (2B, a suggestion): eGFR 20-45 with ACR < 200 mg/g - starting or not is defensible, so no variant;
 * - practice point 3.7.1: once started, continue below eGFR 20 unless not tolerated or kidney replacement starts.
 * Initiation below eGFR 20 is outside the evidence (trials enrolled eGFR >= 20-25). Type 1 diabetes: not recommended
 * (ketoacidosis; FDA labels of empagliflozin and dapagliflozin; trials excluded it).
 */
export const START_MIN_EGFR = 20;
export const ALBUMINURIA_INDICATION_MG_G = 200;
/** The eGFR side of START_MIN_EGFR counts only when every result of this many days before the latest agrees. */
export const SUSTAINED_DAYS = 90;

/** Agents with kidney-outcome trials and their standard dose (mg once daily); canagliflozin only in T2D with eGFR >= 30. */
export const KIDNEY_SGLT2: { ingredient: string; rxcui: string; mgDaily: number; needsT2dAndMinEgfr?: number }[] = [
  { ingredient: 'empagliflozin', rxcui: '1545653', mgDaily: 10 },
  { ingredient: 'dapagliflozin', rxcui: '1488564', mgDaily: 10 },
  { ingredient: 'canagliflozin', rxcui: '1373458', mgDaily: 100, needsT2dAndMinEgfr: 30 },
];

/** Class ids (graders/lib/drug-classes.ts). */
export const SGLT2_CLASS = 'sglt2-inhibitor';
export const RAAS_CLASSES = ['ace-inhibitor', 'arb', 'arni'];

/** UACR follow-up: due within a year (KDIGO 2024 chapter 1: monitor albuminuria at least annually in CKD). */
export const UACR_DUE_WITHIN_DAYS = 365;
