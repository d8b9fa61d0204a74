// The records a chart keeps while it is generated: visits, conditions, medication courses. Modules and builders
// share these shapes; the FHIR resources are written from them.
import type { PlantedError } from '../coherence.ts';
import type { MessRates } from '../mess.ts';
import type { Clinician, Staff } from '../staff.ts';

export type Sex = 'male' | 'female';
export type VisitKind = 'AMB' | 'EMER' | 'IMP' | 'VR';

export interface Visit {
  id: string;
  kind: VisitKind;
  start: number;
  end: number;
  clinician: Clinician;
  typeCode: string;
  reasonText: string;
  /** Conditions addressed (Encounter.diagnosis). */
  diagnoses: string[];
  /** Note content, written from the structured data as it is produced. */
  problems: string[];
  results: string[];
  plan: string[];
  vitalsText?: string;
  /** Measured blood pressure, when vitals were taken. */
  bp?: [systolic: number, diastolic: number];
  noteType: '11506-3' | '11488-4' | '18842-5' | '34117-2';
  /** No note at all for this visit. */
  silent?: boolean;
}

export interface ConditionSpec {
  icd: string;
  snomed: string;
  text: string;
}

export interface ConditionRecord extends ConditionSpec {
  key: string;
  id: string;
  onset: number;
  abated?: number;
  visit?: Visit;
}

export interface Drug {
  rxcui: string;
  /** Product as prescribed, e.g. "metformin 500 MG Oral Tablet". */
  product: string;
  dose: number;
  doseUnit: string;
  /** Times per day (per week when `weekly`); 0 = as needed. */
  perDay: number;
  /** Dosed weekly (alendronate, methotrexate): structured timing is per week, GTS code WK. */
  weekly?: boolean;
  route: 'oral' | 'inhaled' | 'subcutaneous';
  sig: string;
  /** Supply per fill, in dose units. */
  supply?: number;
}

export interface MedCourse {
  id: string;
  drug: Drug;
  start: number;
  end?: number;
  stopReason?: { code: string; text: string };
  indication?: string;
  prescriber: Clinician;
  visit?: Visit;
  prior?: string;
  /** Short courses (antibiotics) complete rather than stop. */
  completes?: boolean;
  /** A deliberate, labelled error (meta.tag on the order): the course is a planted trap, not an accident. */
  planted?: PlantedError;
}

export interface ChartContext {
  seed: number;
  index: number;
  reference: number;
  mess: MessRates;
  staff: Staff;
}
