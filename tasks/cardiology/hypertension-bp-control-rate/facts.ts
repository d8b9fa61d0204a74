// Clinical facts of the blood-pressure control measure, shared as data by the grader and the reference solution; each
// computes the denominator and control with its own code.
//
// NCQA HEDIS Controlling High Blood Pressure (CBP), MY2025: adults 18-85 with hypertension; controlled when the most
// recent BP of the measurement period is < 140/90 (both strictly below); no reading = not controlled; when several
// readings share the most recent date, HEDIS takes the lowest systolic and the lowest diastolic of that date. The
// question defines its denominator itself (no HEDIS exclusions such as hospice or frailty are asked for).

export const SNOMED = 'http://snomed.info/sct';
export const ICD10CM = 'http://hl7.org/fhir/sid/icd-10-cm';
export const LOINC = 'http://loinc.org';
export const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

/** Essential hypertension: SNOMED CT 59621000, ICD-10-CM I10. */
export const HYPERTENSION = [{ system: SNOMED, codes: ['59621000'] }, { system: ICD10CM, codes: ['I10'] }];
/** The BP panel (LOINC 85354-9 or the local flowsheet code BP) and its systolic/diastolic components. */
export const BP_PANEL = [{ system: LOINC, codes: ['85354-9'] }, { system: FLOWSHEET, codes: ['BP'] }];
export const SYSTOLIC = '8480-6';
export const DIASTOLIC = '8462-4';

export const MIN_AGE = 18;
export const MAX_AGE = 85;
export const WINDOW_DAYS = 365;
/** Controlled: systolic < 140 and diastolic < 90 mmHg. */
export const SYSTOLIC_BELOW = 140;
export const DIASTOLIC_BELOW = 90;
