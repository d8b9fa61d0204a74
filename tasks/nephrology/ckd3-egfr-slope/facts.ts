// Clinical facts of the eGFR-slope registry question, shared as data by the grader and the reference solution; each
// computes the cohort and the slopes with its own code.
//
// KDIGO 2024 CKD guideline (Kidney Int 2024;105(4S):S117-S314), section 2.1: rapid progression is a sustained decline
// in eGFR of more than 5 ml/min/1.73 m2 per year; the slope is best estimated from several values over time (a
// least-squares line through the results).

export const SNOMED = 'http://snomed.info/sct';
export const ICD10CM = 'http://hl7.org/fhir/sid/icd-10-cm';
export const LOINC = 'http://loinc.org';
export const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

/** CKD stage 3: SNOMED CT 433144002 (stage 3), 700378005 (3a), 700379002 (3b); ICD-10-CM N18.3, N18.30-N18.32. */
export const CKD3_SNOMED = ['433144002', '700378005', '700379002'];
export const CKD3_ICD10 = /^N18\.3\d?$/;

/** eGFR: LOINC 33914-3 (MDRD), 48642-3 / 48643-1 (MDRD by race), 62238-1 (CKD-EPI), 98979-8 (CKD-EPI 2021), or the local code EGFR. */
export const EGFR = [{ system: LOINC, codes: ['33914-3', '48642-3', '48643-1', '62238-1', '98979-8'] }, { system: FLOWSHEET, codes: ['EGFR'] }];

/** "The last two years": 730 days up to now; two calendar years back (731 days across a leap day) is read the same way. */
export const WINDOW_DAYS = 730;
/** A slope needs at least two results. */
export const MIN_RESULTS = 2;
/** Rapid progression: slope below -5 mL/min/1.73m2 per year. */
export const RAPID_BELOW = -5;
/** Days per year for the time axis. */
export const DAYS_PER_YEAR = 365.25;
