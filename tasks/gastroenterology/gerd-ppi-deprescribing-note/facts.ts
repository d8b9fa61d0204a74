// Clinical facts of the PPI deprescribing consult, shared by the grader and the reference solution as data only:
// which results count, which drugs are PPIs, and which chart problems are a standing indication for long-term PPI
// (AGA 2022 de-prescribing update; AGA 2017 long-term PPI best practice advice). Each side reads the chart and decides
// with its own code.

export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const ICD10 = 'http://hl7.org/fhir/sid/icd-10-cm';

export const HEMOGLOBIN_RESULTS = [{ system: LOINC, codes: ['718-7'] }];
export const EGFR_RESULTS = [{ system: LOINC, codes: ['33914-3', '62238-1', '98979-8', '48642-3', '48643-1'] }];

/** GERD on the problem list. */
export const GERD = [{ system: SNOMED, codes: ['235595009'] }, { system: ICD10, codes: ['K21.9', 'K21.0', 'K21.00', 'K21.01'] }];

/** The PPI class of graders/lib/drug-classes.ts (omeprazole, esomeprazole, lansoprazole, ... by any code, brand or text). */
export const PPI_CLASS = 'ppi';

/**
 * Standing indications for long-term PPI: PPI de-prescribing is not offered (AGA 2022 BPA: patients with Barrett's
 * esophagus, a complication of GERD such as severe erosive esophagitis or peptic stricture, or a history of bleeding
 * peptic ulcer / high upper-GI bleeding risk should not be considered for discontinuation; AGA 2017 BPA 1 and 3).
 */
export const LONG_TERM_PPI_INDICATIONS: { name: string; codes: { system: string; codes: string[] }[]; words: string[] }[] = [
  { name: "Barrett's esophagus", codes: [{ system: SNOMED, codes: ['302914006'] }, { system: ICD10, codes: ['K22.70', 'K22.710', 'K22.711', 'K22.719'] }], words: ['barrett'] },
  { name: 'peptic stricture of the esophagus', codes: [{ system: ICD10, codes: ['K22.2'] }], words: ['esophageal stricture', 'peptic stricture'] },
  { name: 'severe erosive esophagitis', codes: [{ system: ICD10, codes: ['K21.01'] }], words: ['grade c esophagitis', 'grade d esophagitis', 'severe erosive esophagitis'] },
  {
    name: 'bleeding peptic ulcer',
    codes: [{ system: ICD10, codes: ['K25.0', 'K25.4', 'K26.0', 'K26.4', 'K27.0', 'K27.4', 'K92.2', 'Z87.11'] }],
    words: ['ulcer with hemorrhage', 'bleeding ulcer', 'bleeding peptic ulcer', 'upper gi bleed', 'upper gastrointestinal hemorrhage'],
  },
];

/** How the drug is named in prose: the answer and the note are read for their direction about these. */
export const PPI_NAMES = ['omeprazole', 'prilosec', 'PPI', 'PPIs', 'proton pump inhibitor', 'proton-pump inhibitor', 'acid suppression', 'esomeprazole', 'pantoprazole', 'lansoprazole', 'rabeprazole', 'dexlansoprazole', 'nexium', 'protonix'];

/** How de-prescribing itself is named: a recommendation to de-prescribe is one against the PPI. */
export const DEPRESCRIBING = ['de-prescribing', 'deprescribing', 'deprescribe', 'de-prescribe', 'deprescribed', 'de-prescribed', 'discontinuation', 'trial off'];
/** Mentions of the drug inside a de-prescribing phrase are about de-prescribing, not the drug. */
export const DEPRESCRIBING_PHRASES = ['PPI de-prescribing', 'PPI deprescribing', 'de-prescribing of PPI', 'deprescribing of PPI', 'de-prescribing of the PPI', 'PPI taper', 'PPI discontinuation', 'PPI step-down', 'omeprazole taper', 'trial off PPI', 'trial off omeprazole'];
