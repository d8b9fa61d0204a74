// Clinical facts of the testosterone request, shared by the grader and the reference solution (never logic): what
// counts as prostate cancer and androgen deprivation, how testosterone deficiency is confirmed, and the safety
// thresholds before starting. Each side decides "start or not" from these with its own code.
//
// - FDA labels of testosterone products: contraindicated in men with known or suspected carcinoma of the prostate.
//   Endocrine Society 2018 (J Clin Endocrinol Metab 2018;103:1715-1744): recommend against starting testosterone in
//   men with prostate cancer, PSA > 4 ng/mL (> 3 at high risk) without urologic evaluation, or an elevated hematocrit.
// - AUA 2018 testosterone deficiency guideline (J Urol 2018;200:423-432): total testosterone < 300 ng/dL is a
//   reasonable cut-off; the diagnosis is made only after two total testosterone measurements on separate occasions,
//   both in the early morning; measure hematocrit and, in men over 40, PSA before offering therapy; withhold at a
//   hematocrit above 50%. Men with a history of prostate cancer are told the evidence is inadequate to quantify the
//   risk-benefit of testosterone therapy: after definitive treatment with no evidence of disease it is an individual
//   decision, so such charts are never variants here.
// - Androgen deprivation therapy lowers testosterone on purpose: replacing it defeats the cancer treatment.
import type { CodeSet } from '../../../graders/lib/index.ts';

const SNOMED = 'http://snomed.info/sct';
const LOINC = 'http://loinc.org';
const ICD10 = 'http://hl7.org/fhir/sid/icd-10-cm';

export const PROSTATE_CANCER: CodeSet[] = [
  { system: SNOMED, codes: ['399068003', '254900004', '93974005'] },
  { system: ICD10, codes: ['C61'] },
];
/** Clinical statuses under which the cancer is current (not resolved or in remission). */
export const CANCER_CURRENT = ['active', 'recurrence', 'relapse'];

/** Androgen deprivation and androgen-receptor drugs (ingredient names): castrate testosterone is the goal. */
export const ANDROGEN_DEPRIVATION = ['leuprolide', 'goserelin', 'triptorelin', 'histrelin', 'degarelix', 'relugolix', 'bicalutamide', 'flutamide', 'nilutamide',
  'enzalutamide', 'apalutamide', 'darolutamide', 'abiraterone'];

/** Androgens a prescriber might start (ingredient names): the drug-classes 'testosterone' class and anabolic steroids. */
export const ANDROGENS = ['testosterone', 'methyltestosterone', 'nandrolone', 'oxandrolone', 'fluoxymesterone', 'oxymetholone'];

/** Total testosterone results: mass concentration in serum or plasma (ng/dL). */
export const TOTAL_TESTOSTERONE: CodeSet[] = [{ system: LOINC, codes: ['2986-8'] }];
export const PSA: CodeSet[] = [{ system: LOINC, codes: ['2857-1', '35741-8', '83112-3'] }];
export const HEMATOCRIT: CodeSet[] = [{ system: LOINC, codes: ['4544-3', '20570-8', '71833-8'] }];

export const THRESHOLDS = {
  /** AUA 2018: total testosterone below this (ng/dL) supports deficiency. */
  lowTestosteroneNgDl: 300,
  /** "Early morning": drawn before this local hour. */
  morningBeforeHour: 10,
  /** Confirming measurements: at least this many, on different days, within this many days before `now`. */
  confirmingResults: 2,
  confirmingWithinDays: 180,
  /** Safety labs within this many days before `now`, below these values. */
  safetyLabsWithinDays: 365,
  psaBelowNgMl: 4,
  hematocritBelowPercent: 50,
  /** Label maxima, as mg per day: injectable esters 400 mg every 2 weeks; transdermal gel 100 mg a day. */
  maxDailyMg: { injection: 400 / 14, transdermal: 100 },
};
