// Messy-EHR realism: how often generated data carries the defects of real feeds. On by default; `--clean` zeroes it.
// The rates are recorded in the dataset metadata so a benchmark states exactly how messy its data was; chart/mess.ts
// applies them.
export interface MessRates {
  /** A local flowsheet code (K, GLU, A1C, BP...) beside the LOINC coding. */
  localCodeBeside: number;
  /** Only the local code, no LOINC (a search by LOINC misses it). */
  localCodeOnly: number;
  /** The result in an alternative unit (glucose/cholesterol in mmol/L, creatinine in umol/L). */
  unitVariant: number;
  /** The same result stored twice. */
  duplicate: number;
  /** A wrong result marked entered-in-error beside the right one. */
  enteredInError: number;
  /** A result with status corrected. */
  corrected: number;
  /** The value exists only in the note text. */
  noteOnly: number;
  /** An Observation without a value (dataAbsentReason). */
  missingValue: number;
  /** A medication order with free text only, no RxNorm coding. */
  freeTextMed: number;
  /** Timestamps in the clinic's local offset instead of UTC. */
  tzOffset: number;
  /**
   * A second prescriber's order of an ingredient already on the list kept beside it (both active) instead of
   * reconciled: a planted duplicate, tagged `duplicate-order` (seed/coherence.ts PLANTED_ERRORS) on both orders.
   */
  duplicateOrder: number;
}

export const DEFAULT_MESS: MessRates = {
  localCodeBeside: 0.25,
  localCodeOnly: 0.03,
  unitVariant: 0.05,
  duplicate: 0.01,
  enteredInError: 0.005,
  corrected: 0.005,
  noteOnly: 0.01,
  missingValue: 0.005,
  freeTextMed: 0.03,
  tzOffset: 0.4,
  duplicateOrder: 0.3,
};

export const NO_MESS: MessRates = Object.fromEntries(Object.keys(DEFAULT_MESS).map((k) => [k, 0])) as unknown as MessRates;
