// Clinical facts of repeat bone density testing on osteoporosis treatment, shared as data by the grader and the
// reference solution: what counts as a DXA, the osteoporosis drugs, and the intervals on which guidelines agree. Each
// side decides "is a repeat DXA due" with its own code.
//
// - BHOF 2022 (Osteoporos Int 2022;33:2049-2102): repeat BMD 1-2 years after starting therapy, then every 2 years or
//   less often; ISCD 2023: repeat when the expected change can exceed the least significant change; CMS NCD 150.3:
//   monitoring covered every 23 months. A DXA less than 12 months old is not repeated under any of them.
// - ACP 2017/2023 (Ann Intern Med): no BMD monitoring during the first 5 years of treatment; ASBMR 2016 task force
//   (J Bone Miner Res 2016;31:16-35): after 5 years of oral bisphosphonate, reassess fracture risk with BMD to decide
//   on a drug holiday. So a repeat is due under every guideline only after 5 or more years of treatment with the last
//   DXA 2 or more years old. A DXA 12-24 months old, or an older one in the first 5 years of treatment, is disputed:
//   never a variant.

export const SNOMED = 'http://snomed.info/sct';
export const LOINC = 'http://loinc.org';
export const CPT = 'http://www.ama-assn.org/go/cpt';
export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';

/** A DXA, by any of its records: the report (LOINC), the procedure (SNOMED) or its billing code (CPT). */
export const DXA_RECORD = [
  { system: LOINC, codes: ['38269-7', '24701-5'] },
  { system: SNOMED, codes: ['312681000', '391057001', '300004007'] },
  { system: CPT, codes: ['77080', '77081', '77085'] },
];
export const OSTEOPOROSIS = { system: SNOMED, code: '64859006' };

/** Osteoporosis drug therapy (graders/lib/drug-classes.ts id: bisphosphonates, denosumab, raloxifene, the anabolic
 * agents), recognised by any RxNorm code, brand or name: on treatment the DXA is monitoring, not screening. */
export const OSTEOPOROSIS_THERAPY = 'osteoporosis-therapy';

/** Months since the last DXA below which a repeat is not due; at or above which (with treatment years) it is. */
export const INTERVALS = { notDueWithinMonths: 12, dueFromMonths: 24, treatmentYearsForReassessment: 5 };
/** The next DXA: from 12 months (BHOF: 1-2 years after starting therapy) to 5 years (ACP) after the last one. */
export const NEXT_DUE_MONTHS = { earliest: 12, latest: 60 };
