// Clinical facts of the hepatitis C treatment-readiness consult (AASLD/IDSA HCV Guidance, simplified treatment of
// treatment-naive adults without cirrhosis), shared by the grader and the reference solution as data only: the result
// codes, the FIB-4 thresholds, the decompensation criteria, the two simplified regimens and the interactions that
// decide between them. Each side reads the chart and decides with its own code.

export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';

export const RESULTS = {
  hcvAntibody: [{ system: LOINC, codes: ['13955-0', '16128-1', '40726-2'] }],
  hcvRna: [{ system: LOINC, codes: ['11011-4', '20416-5', '38180-6', '10676-5', '5012-4'] }],
  hbsag: [{ system: LOINC, codes: ['5196-1', '5195-3', '7905-3'] }],
  hiv: [{ system: LOINC, codes: ['56888-1', '75622-1', '7917-8'] }],
  pregnancy: [{ system: LOINC, codes: ['2106-3', '2118-8', '19080-1'] }],
  ast: [{ system: LOINC, codes: ['1920-8', '30239-8'] }],
  alt: [{ system: LOINC, codes: ['1742-6', '1743-4'] }],
  platelets: [{ system: LOINC, codes: ['777-3', '26515-7'] }],
  albumin: [{ system: LOINC, codes: ['1751-7'] }],
  bilirubin: [{ system: LOINC, codes: ['1975-2'] }],
  inr: [{ system: LOINC, codes: ['6301-6', '34714-6'] }],
};

/** SNOMED CT result values read as positive (reactive/detected) or negative. */
export const POSITIVE_VALUES = ['11214006', '10828004', '260373001']; // Reactive, Positive, Detected
export const NEGATIVE_VALUES = ['131194007', '260385009', '260415000']; // Non-Reactive, Negative, Not detected

/**
 * FIB-4 = age (years) x AST (U/L) / (platelets (10^9/L) x sqrt(ALT (U/L))) (Sterling 2006). The simplified pathway
 * presumes cirrhosis above CIRRHOSIS_ABOVE (AASLD/IDSA: FIB-4 > 3.25); below LOW_BELOW advanced fibrosis is unlikely.
 */
export const FIB4 = { LOW_BELOW: 1.45, CIRRHOSIS_ABOVE: 3.25 };

/**
 * Decompensation excludes the simplified pathway and calls for a specialist (AASLD/IDSA "Patients with decompensated
 * cirrhosis": refer to a liver transplant centre; protease inhibitors such as glecaprevir are contraindicated):
 * a history of ascites, hepatic encephalopathy or variceal bleeding, or total bilirubin > 2.0 mg/dL, albumin <= 3.5
 * g/dL, INR >= 1.7 (the simplified guidance's Child-Turcotte-Pugh score >= 7 surrogates).
 */
export const DECOMPENSATION = {
  conditions: [
    { system: SNOMED, codes: ['389026000', '72836002', '17709002', '28670008'] }, // ascites, hepatic encephalopathy, bleeding esophageal varices, esophageal varices
  ],
  words: ['ascites', 'encephalopathy', 'variceal', 'varices'],
  bilirubinAboveMgDl: 2.0,
  albuminAtOrBelowGdl: 3.5,
  inrAtOrAbove: 1.7,
};

/** A woman of childbearing potential needs a negative pregnancy test before DAA therapy (within this many days). */
export const CHILDBEARING_AGE = { min: 15, max: 49 };
export const PREGNANCY_TEST_DAYS = 30;

export interface Regimen {
  name: string;
  /** Ingredient names of the fixed-dose combination. */
  ingredients: string[];
  /** The daily dose of the first ingredient, mg (glecaprevir 300 = three 100/40 mg tablets; sofosbuvir 400). */
  mgPerDay: number;
  weeks: number;
}

/** The two simplified regimens (AASLD/IDSA simplified HCV treatment, treatment-naive without cirrhosis). */
export const REGIMENS: Regimen[] = [
  { name: 'glecaprevir/pibrentasvir', ingredients: ['glecaprevir', 'pibrentasvir'], mgPerDay: 300, weeks: 8 },
  { name: 'sofosbuvir/velpatasvir', ingredients: ['sofosbuvir', 'velpatasvir'], mgPerDay: 400, weeks: 12 },
];

/** Every DAA ingredient (ledipasvir/sofosbuvir is not a simplified regimen, but a DAA order all the same). */
export const DAA_INGREDIENTS = ['glecaprevir', 'pibrentasvir', 'sofosbuvir', 'velpatasvir', 'ledipasvir'];

/**
 * Interactions that decide the regimen (AASLD/IDSA simplified treatment, "medication reconciliation"; FDA labels):
 * - amiodarone with any sofosbuvir regimen: serious symptomatic bradycardia - not to be combined;
 * - a proton pump inhibitor with velpatasvir or ledipasvir: absorption falls - avoid, unless omeprazole at most
 *   PPI_ALLOWED_OMEPRAZOLE_MG a day (taken 4 h after sofosbuvir/velpatasvir with food).
 */
export const INTERACTIONS = [
  { daa: 'sofosbuvir', with: 'amiodarone', why: 'symptomatic bradycardia (FDA warning 2015)' },
  { daa: 'velpatasvir', with: 'ppi', why: 'reduced velpatasvir absorption' },
  { daa: 'ledipasvir', with: 'ppi', why: 'reduced ledipasvir absorption' },
];
export const PPI_ALLOWED_OMEPRAZOLE_MG = 20;

/** SVR12: HCV RNA 12 weeks after the end of treatment. */
export const SVR_WEEKS_AFTER = 12;
