// Clinical facts of the urine-culture antibiotic review, shared as data by the grader and the reference solution:
// the oral agents for acute uncomplicated cystitis with their doses by creatinine clearance (IDSA 2010 and the
// labels), which reported susceptibility stands for which agent (CLSI surrogates), and the patient factors that rule
// an agent out (allergy, CrCl, pregnancy, QT prolongation). Each side reads the culture and the chart and chooses
// with its own code.

export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
export const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';

export const URINE_CULTURE = { system: LOINC, code: '630-4' };
export const CREATININE = [{ system: LOINC, codes: ['2160-0', '38483-4'] }];
export const BODY_WEIGHT = [{ system: LOINC, codes: ['29463-7', '3141-9'] }];
export const QTC = [{ system: LOINC, codes: ['8636-3'] }];
export const ESTIMATED_DELIVERY_DATE = { system: LOINC, code: '11778-8' };
/** Pregnancy on the problem list: ICD-10-CM Z33.1 / Z34.x / O-codes, SNOMED 77386006. */
export const PREGNANCY = { icd10: /^(Z33\.1|Z34|O[0-9])/, snomed: ['77386006'] };

/** A regimen: mg of the named ingredient per dose and doses per day, for CrCl at least `crclAtLeast` mL/min. */
export interface Regimen { crclAtLeast: number; mgPerDose: [number, number]; timesPerDay: number[] }
export interface CystitisAgent {
  /** Ingredients of the product (a combination lists both). */
  ingredients: string[];
  /** The ingredient the doses are in (sulfamethoxazole for TMP-SMX, amoxicillin for amoxicillin-clavulanate). */
  doseOf: string;
  /** The reported susceptibility that stands for it (ingredients of the tested drug). */
  testedAs: string[];
  regimens: Regimen[];
  /** Below this CrCl the agent is not used at all. */
  avoidBelowCrcl?: number;
  /** Fluoroquinolones: only when no other listed agent is active and safe (FDA 2016 safety communication; IDSA 2010). */
  reserve?: boolean;
  /** Not in the first trimester of pregnancy when an alternative exists (ACOG CO 717), or not in pregnancy at all. */
  pregnancy?: 'avoid-first-trimester' | 'avoid';
  /** Prolongs the QT interval (CredibleMeds known risk): not with QTc >= 500 ms or another QT-prolonging drug. */
  prolongsQt?: boolean;
}

/**
 * IDSA 2010 acute uncomplicated cystitis (Gupta K et al. Clin Infect Dis 2011;52:e103): nitrofurantoin 100 mg BID
 * x5 d, TMP-SMX 160/800 BID x3 d, fosfomycin 3 g once; beta-lactams (amoxicillin-clavulanate, cefdinir, cefaclor,
 * cefpodoxime, cephalexin) 3-7 d when those cannot be used; fluoroquinolones reserved. Renal doses from the labels.
 * Cefazolin (urine breakpoint) predicts the oral cephalosporins and ampicillin predicts amoxicillin (CLSI M100).
 */
export const CYSTITIS_AGENTS: Record<string, CystitisAgent> = {
  nitrofurantoin: { ingredients: ['nitrofurantoin'], doseOf: 'nitrofurantoin', testedAs: ['nitrofurantoin'], avoidBelowCrcl: 30, pregnancy: 'avoid-first-trimester',
    regimens: [{ crclAtLeast: 30, mgPerDose: [100, 100], timesPerDay: [2] }, { crclAtLeast: 30, mgPerDose: [50, 100], timesPerDay: [4] }] },
  'trimethoprim-sulfamethoxazole': { ingredients: ['sulfamethoxazole', 'trimethoprim'], doseOf: 'sulfamethoxazole', testedAs: ['sulfamethoxazole', 'trimethoprim'], pregnancy: 'avoid-first-trimester',
    regimens: [{ crclAtLeast: 30, mgPerDose: [800, 800], timesPerDay: [2] }, { crclAtLeast: 15, mgPerDose: [400, 400], timesPerDay: [2] }, { crclAtLeast: 15, mgPerDose: [800, 800], timesPerDay: [1] }] },
  fosfomycin: { ingredients: ['fosfomycin'], doseOf: 'fosfomycin', testedAs: ['fosfomycin'], regimens: [{ crclAtLeast: 0, mgPerDose: [3000, 3000], timesPerDay: [1] }] },
  cephalexin: { ingredients: ['cephalexin'], doseOf: 'cephalexin', testedAs: ['cefazolin'],
    regimens: [{ crclAtLeast: 30, mgPerDose: [250, 500], timesPerDay: [2, 3, 4] }, { crclAtLeast: 15, mgPerDose: [250, 500], timesPerDay: [2, 3] }] },
  cefadroxil: { ingredients: ['cefadroxil'], doseOf: 'cefadroxil', testedAs: ['cefazolin'],
    regimens: [{ crclAtLeast: 50, mgPerDose: [500, 1000], timesPerDay: [2] }, { crclAtLeast: 25, mgPerDose: [500, 500], timesPerDay: [2] }, { crclAtLeast: 10, mgPerDose: [500, 500], timesPerDay: [1] }] },
  cefpodoxime: { ingredients: ['cefpodoxime'], doseOf: 'cefpodoxime', testedAs: ['cefazolin'],
    regimens: [{ crclAtLeast: 30, mgPerDose: [100, 100], timesPerDay: [2] }, { crclAtLeast: 0, mgPerDose: [100, 100], timesPerDay: [1] }] },
  cefuroxime: { ingredients: ['cefuroxime'], doseOf: 'cefuroxime', testedAs: ['cefazolin'],
    regimens: [{ crclAtLeast: 30, mgPerDose: [250, 250], timesPerDay: [2] }, { crclAtLeast: 10, mgPerDose: [250, 250], timesPerDay: [1] }] },
  cefdinir: { ingredients: ['cefdinir'], doseOf: 'cefdinir', testedAs: ['cefazolin'],
    regimens: [{ crclAtLeast: 30, mgPerDose: [300, 300], timesPerDay: [2] }, { crclAtLeast: 0, mgPerDose: [300, 300], timesPerDay: [1] }] },
  'amoxicillin-clavulanate': { ingredients: ['amoxicillin', 'clavulanate'], doseOf: 'amoxicillin', testedAs: ['amoxicillin', 'clavulanate'],
    regimens: [{ crclAtLeast: 30, mgPerDose: [500, 875], timesPerDay: [2] }, { crclAtLeast: 30, mgPerDose: [250, 500], timesPerDay: [3] }, { crclAtLeast: 10, mgPerDose: [250, 500], timesPerDay: [2] }] },
  amoxicillin: { ingredients: ['amoxicillin'], doseOf: 'amoxicillin', testedAs: ['ampicillin'],
    regimens: [{ crclAtLeast: 30, mgPerDose: [500, 500], timesPerDay: [3] }, { crclAtLeast: 30, mgPerDose: [875, 875], timesPerDay: [2] }, { crclAtLeast: 10, mgPerDose: [250, 500], timesPerDay: [2] }] },
  ciprofloxacin: { ingredients: ['ciprofloxacin'], doseOf: 'ciprofloxacin', testedAs: ['ciprofloxacin'], reserve: true, pregnancy: 'avoid', prolongsQt: true,
    regimens: [{ crclAtLeast: 30, mgPerDose: [250, 250], timesPerDay: [2] }, { crclAtLeast: 0, mgPerDose: [250, 250], timesPerDay: [1, 2] }] },
  levofloxacin: { ingredients: ['levofloxacin'], doseOf: 'levofloxacin', testedAs: ['levofloxacin'], reserve: true, pregnancy: 'avoid', prolongsQt: true,
    regimens: [{ crclAtLeast: 20, mgPerDose: [250, 250], timesPerDay: [1] }] },
};

/** First trimester: up to 13 weeks 6 days of gestation (ACOG). Gestational age = 280 days before the due date. */
export const FIRST_TRIMESTER_LAST_DAY = 13 * 7 + 6;
/** QTc at or above this (ms) rules out QT-prolonging antibiotics (ACC/AHA/HRS; CredibleMeds). */
export const QTC_LIMIT_MS = 500;
/** Drugs with known risk of torsades (CredibleMeds) that the chart may hold beside the antibiotic. */
export const QT_PROLONGING_DRUGS = ['citalopram', 'escitalopram', 'amiodarone'];
