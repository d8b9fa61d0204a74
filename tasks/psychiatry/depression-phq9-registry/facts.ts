// Clinical facts of the collaborative-care registry question, shared as data by the grader and the reference
// solution; each computes the cohort and the latest scores with its own code.
//
// PHQ-9 scoring (Kroenke K, Spitzer RL, Williams JB. J Gen Intern Med 2001;16(9):606-613): 0-4 minimal, 5-9 mild,
// 10-14 moderate, 15-19 moderately severe, 20-27 severe; a score >= 10 had 88% sensitivity and 88% specificity for
// major depression. Measurement-based care (AIMS Center; APA 2019 guideline): remission is a PHQ-9 below 5, response a
// fall of at least 50% from baseline; a latest score of 10 or more means the patient still has at least moderate
// symptoms and is neither in remission nor (necessarily) a responder - the collaborative-care caseload to review.

export const SNOMED = 'http://snomed.info/sct';
export const ICD10CM = 'http://hl7.org/fhir/sid/icd-10-cm';
export const LOINC = 'http://loinc.org';

/** Major depressive disorder on SNOMED CT: MDD (370143000), single episode (36923009), recurrent (66344007), and
 * severity-specific children (moderate 832007; recurrent mild 40379007, moderate 18818009, severe 28475009). */
export const MDD_SNOMED = ['370143000', '36923009', '66344007', '832007', '40379007', '18818009', '28475009'];
/** ICD-10-CM major depressive disorder: F32.0-F32.5 and F32.9 (single episode), F33.* (recurrent, in remission too). */
export const MDD_ICD10 = /^F3(?:2\.[0-59]|3(?:\.|$))/;

/** PHQ-9 total score. */
export const PHQ9 = { system: LOINC, code: '44261-6' };

/** At least moderate symptoms: latest PHQ-9 >= 10 (Kroenke 2001). */
export const MODERATE_FROM = 10;
/** Remission below 5; response a >= 50% fall (for the notes: the registry list is the >= 10 one). */
export const REMISSION_BELOW = 5;
export const RESPONSE_FALL = 0.5;
