// Clinical facts of breast cancer screening shared by the grader and the reference solution (never logic): who is
// screened, what counts as a prior mammogram, and what takes a woman out of screening. Each side decides "is a
// screening mammogram due" with its own code.
//
// USPSTF 2024 (JAMA 2024;331(22):1918-1930): biennial screening mammography for women 40-74 (B); 75+ insufficient
// evidence (I). ACR and NCCN advise yearly screening and ACOG 2024 offers yearly or every two years, so a mammogram
// 12-25 months old is "due" under one guideline and "not due" under another: such charts are never variants. A
// mammogram in the last 12 months is not due under any of them; one more than 25 months ago (or none) is due under all
// of them for women 50-74, the band where every US guideline agrees (40-49 is not a variant for the same reason).
// Codes: the eCQM CMS125 Mammography value set (LOINC 2.16.840.1.113883.3.464.1003.108.12.1018), CPT/HCPCS for
// screening and diagnostic mammography, SNOMED mammography concepts; CMS125 Bilateral Mastectomy
// (...198.12.1005), History of bilateral mastectomy (...198.12.1068) and breast cancer.
import type { CodeSet } from '../../../graders/lib/index.ts';

const SNOMED = 'http://snomed.info/sct';
const LOINC = 'http://loinc.org';
const CPT = 'http://www.ama-assn.org/go/cpt';
const HCPCS = 'https://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets';
const ICD10 = 'http://hl7.org/fhir/sid/icd-10-cm';

/** Ages (completed years) where every US guideline recommends screening, inclusive. */
export const AGREED_AGES = { from: 50, through: 74 };

/** USPSTF 2024 interval, and the band around it where guidelines disagree (never a variant). */
export const INTERVAL_MONTHS = 24;
export const CLEARLY_NOT_DUE_WITHIN_MONTHS = 12;
export const CLEARLY_DUE_AFTER_MONTHS = 25;

/** A prior mammogram (screening or diagnostic: either images both breasts for the interval), by any of its records. */
export const MAMMOGRAM: CodeSet[] = [
  { system: SNOMED, codes: ['71651007', '24623002', '43204002', '241055006'] },
  { system: LOINC, codes: ['24606-6', '24605-8', '24604-1', '24610-8', '26175-0', '26176-8', '26177-6', '26287-3', '26346-7', '36625-2', '36626-0', '36627-8', '72142-3'] },
  { system: CPT, codes: ['77067', '77065', '77066', '77063'] },
  { system: HCPCS, codes: ['G0202', 'G0204', 'G0206'] },
];

/** No breast tissue left to screen (CMS125 exclusions). */
export const BILATERAL_MASTECTOMY = {
  procedures: [{ system: SNOMED, codes: ['22418005', '14693006', '14714006', '17086001', '27865001', '456903003', '52314009', '59860000', '60633004', '726636007', '76468001'] }] satisfies CodeSet[],
  conditions: [
    { system: SNOMED, codes: ['428529004', '136071000119101'] },
    { system: ICD10, codes: ['Z90.13'] },
  ] satisfies CodeSet[],
};

/** Breast cancer, current or past: surveillance after cancer, not average-risk screening. */
export const BREAST_CANCER = {
  codes: [{ system: SNOMED, codes: ['254837009', '372064008', '372137005', '353431000119107', '429740004'] }] satisfies CodeSet[],
  /** ICD-10-CM: malignant neoplasm of breast (C50.x), carcinoma in situ of breast (D05.x), personal history (Z85.3). */
  icd10Prefixes: { system: ICD10, prefixes: ['C50', 'D05', 'Z85.3'] },
};
