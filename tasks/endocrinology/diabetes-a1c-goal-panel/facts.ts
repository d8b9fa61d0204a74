// Clinical facts of the panel A1c review, shared as data by the grader and the reference solution; each computes the
// cohort and the latest results with its own code.
//
// ADA Standards of Care in Diabetes 2025, section 6 (Diabetes Care 2025;48(Suppl 1):S128-S145): an A1C goal < 7% is
// appropriate for many nonpregnant adults (rec. 6.5a); less stringent goals (< 8%) where harms outweigh benefits. The
// question asks for the share below 7.0% and, as the worklist, everyone at 8.0% or above. NCQA HEDIS GSD: the most
// recent result of the period counts; no result counts as not controlled.

export const LOINC = 'http://loinc.org';
export const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

/** HbA1c: LOINC 4548-4 or the laboratory's local flowsheet code A1C. */
export const A1C = [{ system: LOINC, codes: ['4548-4'] }, { system: FLOWSHEET, codes: ['A1C'] }];
/** Type 2 diabetes: SNOMED CT 44054006 or ICD-10-CM E11 and its children. */
export const T2DM_SNOMED = '44054006';
export const T2DM_ICD10 = /^E11(\.|$)/;

export const WINDOW_DAYS = 365;
/** At goal: strictly below 7.0 %. Worklist: 8.0 % or above. */
export const GOAL_BELOW = 7.0;
export const HIGH_FROM = 8.0;
