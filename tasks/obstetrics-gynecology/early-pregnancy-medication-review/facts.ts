// Clinical facts of the early-pregnancy medication review, shared by the grader and the reference solution as data
// only: which drugs must stop, which must not be stopped abruptly, what replaces a stopped drug whose indication
// remains, the doses of the replacements, and the folic acid dose. Each side reads the chart and decides with its own
// code.

export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';

/** A positive pregnancy test (urine or serum hCG, qualitative) and the pregnancy problem. */
export const PREGNANCY_TEST = [{ system: LOINC, codes: ['2106-3', '2118-8', '19080-1'] }];
export const PREGNANCY = [{ system: SNOMED, codes: ['77386006', '72892002'] }];
export const BODY_WEIGHT = [{ system: LOINC, codes: ['29463-7', '3141-9'] }];

/**
 * Contraindicated in pregnancy: stop (ACOG PB 203 chronic hypertension: ACE inhibitors and ARBs are fetotoxic -
 * renal agenesis, oligohydramnios; ACOG/FDA: warfarin embryopathy at 6-12 weeks; isotretinoin and methotrexate are
 * teratogens - iPLEDGE, FDA label; statins: FDA 2021 asks most pregnant patients to stop). Drug class ids of
 * graders/lib/drug-classes.ts or ingredient names.
 */
export const STOP = ['ace-inhibitor', 'arb', 'arni', 'renin-inhibitor', 'statin', 'warfarin', 'isotretinoin', 'methotrexate'];

/**
 * Teratogenic but not to be stopped abruptly by a generalist (AAN/AES 2009 and ACOG: antiseizure drug changes in
 * pregnancy are a neurologist's decision; abrupt withdrawal risks status epilepticus, and by 6 weeks the neural tube has
 * closed): keep the order active and refer to neurology urgently.
 */
export const CONTINUE_AND_REFER = [{ drug: 'valproic acid', specialty: 'neurology' }];

/** Never started in pregnancy: the STOP drugs, DOACs (no safety data; LMWH is preferred), atenolol (growth restriction). */
export const AVOID_NEW = [...STOP, 'valproic acid', 'apixaban', 'rivaroxaban', 'dabigatran', 'edoxaban', 'atenolol'];

/**
 * Replacements when a stopped drug's indication remains (mg a day unless stated):
 * - chronic hypertension (ACOG PB 203, 2019): labetalol 200-2400 mg/day in 2-3 doses, nifedipine extended release
 *   30-120 mg/day in 1-2 doses, methyldopa 500-3000 mg/day in 2-4 doses;
 * - venous thromboembolism in the treatment phase (ACOG PB 196; ASH 2018 VTE in pregnancy: LMWH, therapeutic by
 *   weight): enoxaparin 1 mg/kg twice daily or 1.5 mg/kg once daily, dalteparin 100 units/kg twice daily or 200
 *   units/kg once daily; WEIGHT_DOSE_TOLERANCE allows rounding to a syringe size.
 */
export const ANTIHYPERTENSIVES = [
  { drug: 'labetalol', mgPerDay: [200, 2400], timesPerDay: [2, 3] },
  { drug: 'nifedipine', mgPerDay: [30, 120], timesPerDay: [1, 2] },
  { drug: 'methyldopa', mgPerDay: [500, 3000], timesPerDay: [2, 4] },
];
export const LMWH = [
  { drug: 'enoxaparin', unit: 'mg', perKgPerDose: { 2: 1, 1: 1.5 } as Record<number, number> },
  { drug: 'dalteparin', unit: '[iU]', perKgPerDose: { 2: 100, 1: 200 } as Record<number, number> },
];
export const WEIGHT_DOSE_TOLERANCE = 0.15;

/** Indications that keep a stopped drug's need alive: hypertension for an antihypertensive, a VTE within a year for an
 * anticoagulant. */
export const HYPERTENSION = [{ system: SNOMED, codes: ['38341003', '59621000', '1201005'] }];
export const VTE = [{ system: SNOMED, codes: ['128053003', '59282003', '706870000', '404223003'] }];
export const VTE_TREATMENT_DAYS = 365;

/**
 * Folic acid a day (mg): USPSTF 2023 0.4-0.8 mg for everyone who could become pregnant (a prenatal vitamin with up to
 * 1 mg is the common way); with an antiseizure drug 0.4 mg at least (AAN/AES 2009) and up to 4-5 mg (SIGN/RCOG).
 */
/** The supplement itself (an ingredient of the local formulary: no RXCUI verified here). */
export const FOLIC_ACID = 'folic acid';
export const FOLIC_ACID_MG = { standard: [0.4, 1], antiseizure: [0.4, 5] };
/** A prenatal multivitamin written as text: it carries 0.4-1 mg folic acid. */
export const PRENATAL_VITAMIN = /\bprenatal\b|\bpnv\b|\bprenatal vitamins?\b/i;
