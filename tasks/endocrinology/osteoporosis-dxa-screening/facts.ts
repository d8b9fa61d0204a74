// Clinical facts of osteoporosis screening, shared as data by the grader and the reference solution: who is screened,
// what counts as a prior DXA, and what takes a woman out of screening. Each side decides "is a DXA due" with its own
// code.
//
// USPSTF 2025 (JAMA 2025;333(6):498-508): screen women 65 years or older with bone measurement testing (B); women
// under 65 only when postmenopausal with increased risk by a formal risk tool (B) - a judgement on risk factors, so
// women under 65 are never variants. The USPSTF finds no evidence for a rescreening interval; Medicare covers a DXA
// every 23 months, and after a normal or low-bone-mass result the expected time to osteoporosis is years (Gourlay,
// NEJM 2012;366:225-233), so a DXA in the last 2 years means not due, while one 2 or more years old (interval
// disputed) is never a variant. Osteoporosis already diagnosed or treated is monitoring, not screening; 85 and older
// is not a variant (few data, individual decision).

export const SNOMED = 'http://snomed.info/sct';
export const LOINC = 'http://loinc.org';
export const CPT = 'http://www.ama-assn.org/go/cpt';
export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';

/** Ages (completed years) in which screening is recommended to every woman, inclusive. */
export const SCREENING_AGES = { from: 65, through: 84 };
/** A DXA within this many months means screening is done for now. */
export const RECENT_DXA_MONTHS = 24;

/** A prior DXA, by any of its records: the report (LOINC), the procedure (SNOMED) or its billing code (CPT). */
export const DXA_RECORD = [
  { system: LOINC, codes: ['38269-7', '24701-5'] },
  { system: SNOMED, codes: ['312681000', '391057001', '300004007'] },
  { system: CPT, codes: ['77080', '77081', '77085'] },
];

/** Osteoporosis on the problem list (SNOMED; ICD-10-CM M80/M81 prefixes). */
export const OSTEOPOROSIS = { snomed: ['64859006', '102447009'], icd10Prefixes: ['M80', 'M81'] };

/** Osteoporosis drug therapy (graders/lib/drug-classes.ts id: bisphosphonates, denosumab, raloxifene, the anabolic
 * agents), recognised by any RxNorm code, brand or name: on treatment the DXA is monitoring, not screening. */
export const OSTEOPOROSIS_THERAPY = 'osteoporosis-therapy';
