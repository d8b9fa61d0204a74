// Clinical facts of the anticoagulation-monitoring question, shared as data by the grader and the reference solution;
// each computes the cohort and the gaps with its own code.
//
// EHRA 2021 Practical Guide on NOACs (Europace 2021;23:1612-1676), section 3: hemoglobin, renal and liver function at
// least yearly, every 6 months at age >= 75 or when frail, more often with CrCl < 60. Warfarin: the ACC 2020 bleeding
// decision pathway and the AF guideline expect periodic CBC. The question fixes the window at 182 days up to now.

export const LOINC = 'http://loinc.org';
export const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

/** Oral anticoagulants by ingredient name: warfarin and the DOACs (parenteral heparins are not asked about). */
export const ORAL_ANTICOAGULANTS = ['warfarin', 'apixaban', 'rivaroxaban', 'edoxaban', 'dabigatran', 'dabigatran etexilate'];

/** Hemoglobin results: LOINC 718-7 (blood), 30313-1 and 20509-6 (other methods), or the local flowsheet code HGB. */
export const HEMOGLOBIN = [{ system: LOINC, codes: ['718-7', '30313-1', '20509-6'] }, { system: FLOWSHEET, codes: ['HGB'] }];

/** The window the question names: 182 days up to now, both ends included. */
export const WINDOW_DAYS = 182;
