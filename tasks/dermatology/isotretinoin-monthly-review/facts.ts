// Clinical facts of the monthly isotretinoin review (iPLEDGE REMS; AAD 2024 acne guideline; isotretinoin label),
// shared by the grader and the reference solution as data only: who needs pregnancy tests and contraception, the
// windows, the monitoring labs, the interacting drugs and where each input lives in the chart. Each side reads the
// chart and decides with its own code.

export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
export const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
export const FORMULARY = 'http://ehr-gym.example/fhir/CodeSystem/formulary';

/** Isotretinoin is known by name only (the local formulary: no verified RXCUI; brands Absorica, Claravis, Amnesteem). */
export const ISOTRETINOIN = 'isotretinoin';

/**
 * iPLEDGE REMS, patients who can become pregnant: a negative pregnancy test from a CLIA-certified laboratory before
 * every monthly prescription, the prescription dispensed within 7 days of the specimen collection; two forms of
 * contraception (or committed abstinence) documented each month; at most a 30-day supply, no refills. Who "can become
 * pregnant" here: a female patient aged 12-50 without a hysterectomy or menopause on the problem list.
 */
export const IPLEDGE = { pregnancyTestWithinDays: 7, contraceptionFormsRequired: 2, contraceptionDocumentedWithinDays: 31, maxSupplyDays: 30, childbearingAge: { min: 12, max: 50 } };
export const CANNOT_CONCEIVE = { codes: [{ system: SNOMED, codes: ['236886002'] }], words: ['hysterectomy', 'menopaus', 'oophorectomy'] }; // SNOMED: hysterectomy
export const PREGNANCY_TEST = [{ system: LOINC, codes: ['2106-3', '2118-8', '19080-1', '21198-7'] }];
/** SNOMED result values read as negative / positive. */
export const NEGATIVE_VALUES = ['260385009', '131194007']; // Negative, Non-reactive
export const POSITIVE_VALUES = ['10828004', '11214006'];

/** The chart's monthly contraception record: the flowsheet row, one component per documented form. */
export const CONTRACEPTION = [{ system: FLOWSHEET, codes: ['CONTRACEPTION'] }];

/**
 * AAD 2024 acne guideline (Reynolds et al., JAAD 2024): liver function (ALT) and lipids at baseline and at the peak
 * dose (about 2 months in); no routine monthly labs. The monitoring results live under these codes.
 */
export const LIPIDS = [{ system: LOINC, codes: ['2571-8', '24331-1', '57698-3'] }]; // triglycerides; lipid panels
export const ALT = [{ system: LOINC, codes: ['1742-6', '1743-4'] }];
export const FOLLOW_UP_LABS_AFTER_MONTHS = 2;
/** The AAD's usual dose range, mg/kg/day of the current weight (0.5-1.0; a renewal between 0.25 and 1.0 is accepted). */
export const DOSE_MG_PER_KG = { min: 0.25, max: 1.0 };
export const BODY_WEIGHT = [{ system: LOINC, codes: ['29463-7', '3141-9'] }];

/**
 * PHQ-9 total: the depression screen the label's psychiatric warning is followed with. The label: if depression or
 * suicidal thoughts develop, stop isotretinoin and refer for evaluation; a latest PHQ-9 of 15 or more (moderately severe
 * depression, Kroenke 2001) is read as that. Scores of 10-14 are a judgement call and not variants.
 */
export const PHQ9 = [{ system: LOINC, codes: ['44261-6'] }];
export const DEPRESSION = { holdAtLeast: 15, judgementFrom: 10 };
/** A mental-health referral: SNOMED Psychiatry, or words naming the service. */
export const MENTAL_HEALTH = { specialty: [{ system: SNOMED, codes: ['394587001'] }], words: ['psychiatr', 'mental health', 'behavioral health', 'behavioural health', 'psycholog', 'counsel'] };

/**
 * Interactions that must not run with isotretinoin (label, contraindications and warnings): tetracyclines (pseudotumor
 * cerebri) and vitamin A supplements (additive hypervitaminosis A).
 */
export const INTERACTING = { classes: ['tetracycline'], ingredients: ['vitamin a'] };
