// Clinical facts of colorectal cancer screening that the grader and the reference solution both read (never logic):
// who is in the average-risk screening population, which completed tests count as screening, and for how long each
// one covers the patient. Each decides its own "is screening due" from these facts with its own code.
//
// USPSTF 2021 (JAMA 2021;325(19):1965-1977): screen adults 45-49 (B) and 50-75 (A); 76-85 selectively (C), which
// is an individual decision and therefore never a variant here. Intervals from the same statement (Figure/Table 1):
// colonoscopy every 10 years, CT colonography and flexible sigmoidoscopy every 5 years, stool DNA-FIT every 1-3
// years (3 by its label and the ACS 2018 guideline), FIT and high-sensitivity gFOBT every year.
// Code lists follow the eCQM CMS130 value sets (Colonoscopy 2.16.840.1.113883.3.464.1003.108.12.1020, Flexible
// Sigmoidoscopy ...198.12.1010, FOBT ...198.12.1011, FIT-DNA ...108.12.1039, CT Colonography ...108.12.1038, Total
// Colectomy ...198.12.1019, Malignant Neoplasm of Colon ...108.12.1001).
import type { CodeSet } from '../../../graders/lib/index.ts';

const SNOMED = 'http://snomed.info/sct';
const LOINC = 'http://loinc.org';
const CPT = 'http://www.ama-assn.org/go/cpt';
const HCPCS = 'https://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets';

/** Average-risk screening ages, inclusive, in completed years at the visit (USPSTF 2021: 45 through 75). */
export const SCREENING_AGES = { from: 45, through: 75 };

export type ScreeningModality = 'colonoscopy' | 'ct-colonography' | 'flexible-sigmoidoscopy' | 'stool-dna-fit' | 'fit-or-gfobt';

export interface ScreeningTest {
  modality: ScreeningModality;
  label: string;
  /** How many years a normal result covers the patient. */
  years: number;
  /** Procedure codes (a completed Procedure), and codes of a result (Observation) or report (DiagnosticReport). */
  procedureCodes: CodeSet[];
  resultCodes: CodeSet[];
}

export const SCREENING_TESTS: ScreeningTest[] = [
  {
    modality: 'colonoscopy', label: 'colonoscopy', years: 10,
    procedureCodes: [
      { system: SNOMED, codes: ['73761001', '444783004', '446521004', '446745002', '447021001', '12350003', '174158000', '235150006', '235151005', '25732003', '310634005', '34264006', '367535003', '425672002', '425937002', '427459009', '443998000', '709421007', '710293001', '711307001', '713154003', '8180007', '851000119109'] },
      { system: CPT, codes: ['45378', '45379', '45380', '45381', '45382', '45384', '45385', '45386', '45388', '45389', '45390', '45391', '45392', '45393', '45398'] },
      { system: HCPCS, codes: ['G0105', 'G0121'] },
    ],
    resultCodes: [],
  },
  {
    modality: 'ct-colonography', label: 'CT colonography', years: 5,
    procedureCodes: [{ system: CPT, codes: ['74261', '74262', '74263'] }],
    resultCodes: [{ system: LOINC, codes: ['60515-4', '72531-7', '79069-1', '79071-7', '79101-2', '82688-3'] }],
  },
  {
    modality: 'flexible-sigmoidoscopy', label: 'flexible sigmoidoscopy', years: 5,
    procedureCodes: [
      { system: SNOMED, codes: ['44441009', '396226005', '425634007', '841000119107'] },
      { system: CPT, codes: ['45330', '45331', '45332', '45333', '45334', '45335', '45337', '45338', '45340', '45341', '45342', '45346', '45347', '45349', '45350'] },
      { system: HCPCS, codes: ['G0104'] },
    ],
    resultCodes: [],
  },
  {
    modality: 'stool-dna-fit', label: 'multitarget stool DNA-FIT', years: 3,
    procedureCodes: [],
    resultCodes: [{ system: LOINC, codes: ['77353-1', '77354-9'] }],
  },
  {
    modality: 'fit-or-gfobt', label: 'FIT / high-sensitivity gFOBT', years: 1,
    procedureCodes: [],
    resultCodes: [{ system: LOINC, codes: ['29771-3', '57905-2', '56490-6', '56491-4', '2335-8', '12503-9', '12504-7', '14563-1', '14564-9', '14565-6', '27396-1', '27401-9', '27925-7', '27926-5', '58453-2', '80372-6'] }],
  },
];

/**
 * Conditions and procedures that take a patient out of average-risk screening: colorectal cancer and inflammatory
 * bowel disease need surveillance colonoscopy on a gastroenterology schedule (USPSTF 2021 scope; USMSTF 2017), and
 * after a total colectomy there is no colon to screen.
 */
export const NOT_AVERAGE_RISK = {
  conditions: [
    { system: SNOMED, codes: ['363406005', '93761005', '109838007', '363351006', '34000006', '64766004', '24526004'] },
    { system: 'http://hl7.org/fhir/sid/icd-10-cm', codes: ['C18.0', 'C18.1', 'C18.2', 'C18.3', 'C18.4', 'C18.5', 'C18.6', 'C18.7', 'C18.8', 'C18.9', 'C19', 'C20', 'K50.90', 'K51.90'] },
  ] satisfies CodeSet[],
  procedures: [
    { system: SNOMED, codes: ['26390003', '119771000119101', '303401008', '307666008', '307667004', '307669001', '31130001', '36192008', '44751009', '456004', '80294005'] },
    { system: CPT, codes: ['44150', '44151', '44155', '44156', '44157', '44158', '44210', '44211', '44212'] },
  ] satisfies CodeSet[],
};

/** Result values that mean a stool test was positive (a positive test needs diagnostic colonoscopy, not screening). */
export const POSITIVE_RESULT = { codes: [{ system: SNOMED, codes: ['10828004'] }] satisfies CodeSet[], interpretations: ['POS', 'A', 'AA', 'H', 'DET'] };
