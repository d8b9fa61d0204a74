// The lab and vital-sign catalogue: LOINC code, local flowsheet code, UCUM unit, reference range, critical limits,
// and the alternative unit some labs report in (the messy-EHR unit variant).
export interface LabDef {
  key: string;
  loinc: string;
  /** Local flowsheet code (seed/codes/flowsheet.ts). */
  local: string;
  unit: string;
  low?: number;
  high?: number;
  critLow?: number;
  critHigh?: number;
  decimals: number;
  /** Typical normal value and spread for a healthy adult. */
  normal: [mean: number, sd: number];
  /** The other unit some labs report it in; the value is converted by resources/units (the analyte table). */
  alt?: { unit: string; decimals: number };
  /** Sex-specific reference range (overrides low/high). */
  female?: { low: number; high: number; normal: [number, number] };
}

const lab = (d: LabDef) => d;

export const LABS = {
  GLU: lab({ key: 'GLU', loinc: '2345-7', local: 'GLU', unit: 'mg/dL', low: 70, high: 99, critLow: 50, critHigh: 400, decimals: 0, normal: [90, 7], alt: { unit: 'mmol/L', decimals: 1 } }),
  A1C: lab({ key: 'A1C', loinc: '4548-4', local: 'A1C', unit: '%', low: 4.0, high: 5.6, decimals: 1, normal: [5.3, 0.2] }),
  NA: lab({ key: 'NA', loinc: '2951-2', local: 'NA', unit: 'mmol/L', low: 135, high: 145, critLow: 120, critHigh: 160, decimals: 0, normal: [140, 2] }),
  K: lab({ key: 'K', loinc: '2823-3', local: 'K', unit: 'mmol/L', low: 3.5, high: 5.1, critLow: 2.8, critHigh: 6.2, decimals: 1, normal: [4.2, 0.3] }),
  CL: lab({ key: 'CL', loinc: '2075-0', local: 'CL', unit: 'mmol/L', low: 98, high: 107, decimals: 0, normal: [102, 2] }),
  CO2: lab({ key: 'CO2', loinc: '2028-9', local: 'CO2', unit: 'mmol/L', low: 22, high: 29, decimals: 0, normal: [25, 2] }),
  BUN: lab({ key: 'BUN', loinc: '3094-0', local: 'BUN', unit: 'mg/dL', low: 7, high: 20, decimals: 0, normal: [14, 3] }),
  CREAT: lab({ key: 'CREAT', loinc: '2160-0', local: 'CREAT', unit: 'mg/dL', low: 0.7, high: 1.3, decimals: 2, normal: [1.0, 0.12], alt: { unit: 'umol/L', decimals: 0 }, female: { low: 0.6, high: 1.1, normal: [0.8, 0.1] } }),
  EGFR: lab({ key: 'EGFR', loinc: '33914-3', local: 'EGFR', unit: 'mL/min/{1.73_m2}', low: 60, decimals: 0, normal: [95, 10] }),
  CA: lab({ key: 'CA', loinc: '17861-6', local: 'CA', unit: 'mg/dL', low: 8.6, high: 10.3, decimals: 1, normal: [9.4, 0.3] }),
  MG: lab({ key: 'MG', loinc: '19123-9', local: 'MG', unit: 'mg/dL', low: 1.7, high: 2.2, decimals: 1, normal: [2.0, 0.12] }),
  ALT: lab({ key: 'ALT', loinc: '1742-6', local: 'ALT', unit: 'U/L', low: 7, high: 56, decimals: 0, normal: [25, 8] }),
  AST: lab({ key: 'AST', loinc: '1920-8', local: 'AST', unit: 'U/L', low: 10, high: 40, decimals: 0, normal: [24, 6] }),
  ALB: lab({ key: 'ALB', loinc: '1751-7', local: 'ALB', unit: 'g/dL', low: 3.5, high: 5.0, decimals: 1, normal: [4.2, 0.25] }),
  TBIL: lab({ key: 'TBIL', loinc: '1975-2', local: 'TBIL', unit: 'mg/dL', low: 0.1, high: 1.2, decimals: 1, normal: [0.6, 0.2] }),
  URIC: lab({ key: 'URIC', loinc: '3084-1', local: 'URIC', unit: 'mg/dL', low: 3.4, high: 7.0, decimals: 1, normal: [5.2, 0.8] }),
  UACR: lab({ key: 'UACR', loinc: '14959-1', local: 'UACR', unit: 'mg/g', high: 30, decimals: 0, normal: [12, 5] }),
  NTBNP: lab({ key: 'NTBNP', loinc: '33762-6', local: 'NTBNP', unit: 'pg/mL', high: 125, decimals: 0, normal: [60, 25] }),
  CHOL: lab({ key: 'CHOL', loinc: '2093-3', local: 'CHOL', unit: 'mg/dL', high: 200, decimals: 0, normal: [180, 20], alt: { unit: 'mmol/L', decimals: 2 } }),
  TRIG: lab({ key: 'TRIG', loinc: '2571-8', local: 'TRIG', unit: 'mg/dL', high: 150, decimals: 0, normal: [120, 30] }),
  HDL: lab({ key: 'HDL', loinc: '2085-9', local: 'HDL', unit: 'mg/dL', low: 40, decimals: 0, normal: [52, 10] }),
  LDL: lab({ key: 'LDL', loinc: '13457-7', local: 'LDL', unit: 'mg/dL', high: 100, decimals: 0, normal: [105, 20], alt: { unit: 'mmol/L', decimals: 2 } }),
  TSH: lab({ key: 'TSH', loinc: '3016-3', local: 'TSH', unit: 'm[IU]/L', low: 0.4, high: 4.0, decimals: 2, normal: [1.8, 0.6] }),
  FT4: lab({ key: 'FT4', loinc: '3024-7', local: 'FT4', unit: 'ng/dL', low: 0.8, high: 1.8, decimals: 2, normal: [1.2, 0.15] }),
  HGB: lab({ key: 'HGB', loinc: '718-7', local: 'HGB', unit: 'g/dL', low: 13.5, high: 17.5, critLow: 7, decimals: 1, normal: [15, 0.9], female: { low: 12.0, high: 15.5, normal: [13.5, 0.8] } }),
  HCT: lab({ key: 'HCT', loinc: '4544-3', local: 'HCT', unit: '%', low: 38.8, high: 50, decimals: 1, normal: [44, 2.5], female: { low: 34.9, high: 44.5, normal: [40, 2.2] } }),
  WBC: lab({ key: 'WBC', loinc: '6690-2', local: 'WBC', unit: '10*3/uL', low: 4.5, high: 11.0, decimals: 1, normal: [7, 1.4] }),
  PLT: lab({ key: 'PLT', loinc: '777-3', local: 'PLT', unit: '10*3/uL', low: 150, high: 450, critLow: 50, decimals: 0, normal: [250, 50] }),
  MCV: lab({ key: 'MCV', loinc: '787-2', local: 'MCV', unit: 'fL', low: 80, high: 100, decimals: 0, normal: [90, 4] }),
  FERR: lab({ key: 'FERR', loinc: '2276-4', local: 'FERR', unit: 'ng/mL', low: 24, high: 336, decimals: 0, normal: [120, 50], female: { low: 11, high: 307, normal: [80, 35] } }),
  INR: lab({ key: 'INR', loinc: '6301-6', local: 'INR', unit: '{INR}', low: 0.8, high: 1.1, critHigh: 5, decimals: 1, normal: [1.0, 0.05] }),
  // Therapeutic range 0.6-1.2 mmol/L; `normal` is the steady-state level of a patient on lithium (none without it).
  LITH: lab({ key: 'LITH', loinc: '14334-7', local: 'LITH', unit: 'mmol/L', low: 0.6, high: 1.2, critHigh: 2.0, decimals: 1, normal: [0.8, 0.15] }),
  // Not detected (0) without HIV or when suppressed; above 20 copies/mL is detectable viraemia.
  HIVVL: lab({ key: 'HIVVL', loinc: '20447-9', local: 'HIVVL', unit: '{copies}/mL', high: 20, decimals: 0, normal: [0, 0] }),
  CD4: lab({ key: 'CD4', loinc: '24467-3', local: 'CD4', unit: '/uL', low: 500, high: 1500, decimals: 0, normal: [850, 200] }),
} satisfies Record<string, LabDef>;

export type LabKey = keyof typeof LABS;

export interface PanelDef {
  loinc: string;
  service: 'CH' | 'HM';
  labs: LabKey[];
}

export const PANELS = {
  BMP: { loinc: '51990-0', service: 'CH', labs: ['GLU', 'NA', 'K', 'CL', 'CO2', 'BUN', 'CREAT', 'CA', 'EGFR'] },
  CMP: { loinc: '24323-8', service: 'CH', labs: ['GLU', 'NA', 'K', 'CL', 'CO2', 'BUN', 'CREAT', 'CA', 'EGFR', 'ALT', 'AST', 'ALB', 'TBIL'] },
  CBC: { loinc: '58410-2', service: 'HM', labs: ['WBC', 'HGB', 'HCT', 'PLT', 'MCV'] },
  LIPID: { loinc: '24331-1', service: 'CH', labs: ['CHOL', 'TRIG', 'HDL', 'LDL'] },
} satisfies Record<string, PanelDef>;

export type PanelKey = keyof typeof PANELS;

/** H/L/HH/LL against the (sex-specific) reference range and critical limits. */
export function interpret(def: LabDef, value: number, female: boolean): 'HH' | 'LL' | 'H' | 'L' | 'N' {
  const low = female && def.female ? def.female.low : def.low;
  const high = female && def.female ? def.female.high : def.high;
  if (def.critHigh !== undefined && value >= def.critHigh) return 'HH';
  if (def.critLow !== undefined && value <= def.critLow) return 'LL';
  if (high !== undefined && value > high) return 'H';
  if (low !== undefined && value < low) return 'L';
  return 'N';
}

export function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}
