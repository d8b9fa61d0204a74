// Clinical facts of the potassium-on-an-ACE-inhibitor task, shared by the grader and the reference solution as data
// only: which results are potassium, the potassium bands and what each requires, and which drugs raise or lower
// potassium. Each side reads the chart and applies these facts with its own code, so the oracle can catch an error
// in the grader.

export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

/** Serum/plasma/blood potassium results (LOINC) and the seed's local flowsheet code. */
export const POTASSIUM_RESULTS = [
  { system: LOINC, codes: ['2823-3', '6298-4', '77142-8'] },
  { system: FLOWSHEET, codes: ['K'] },
];

/**
 * Potassium bands (mmol/L), by the latest result:
 * - at or above MUST_LOWER (6.0): potassium exposure must come down (NICE NG203 1.6 stops the RAS antagonist at
 *   >= 6.0; KDIGO 2024 3.6/3.10 prefers potassium-lowering measures that keep the ACE inhibitor) and K is rechecked
 *   within RECHECK_DAYS.mustLower days;
 * - at or above HIGH (5.5): hyperkalemia - potassium supplements and potassium-sparing diuretics stop, the ACE
 *   inhibitor is not raised, K is rechecked within RECHECK_DAYS.high days; continuing the ACE inhibitor unchanged is
 *   defensible here (KDIGO 2024 3.10: measurement variability, manage potassium rather than stop RASi);
 * - at or below NORMAL_MAX (5.0): normal - the ACE inhibitor continues unchanged.
 * Between 5.0 and 5.5 both continuing and lowering exposure are defensible, so no variant sits there.
 */
export const POTASSIUM_BANDS = { MUST_LOWER: 6.0, HIGH: 5.5, NORMAL_MAX: 5.0 };
export const RECHECK_DAYS = { mustLower: 3, high: 7 };

/** A normal latest value is a variant only when a high value (>= HIGH) was seen within this many days before it. */
export const EARLIER_HIGH_WINDOW_DAYS = 365;

/** The ACE inhibitor the task is about (RxNorm ingredient and the SCDs the binding searches for). */
export const LISINOPRIL = { ingredient: '29046', name: 'lisinopril', products: ['29046', '314076', '314077'] };

export interface DrugGroup {
  name: string;
  /** Drug class ids of graders/lib/drug-classes.ts (each lists its member ingredients and source). */
  classes: string[];
  /** Lower-case generic ingredient names outside those classes. */
  ingredients: string[];
}

/** ACE inhibitors. */
export const ACE_INHIBITORS: DrugGroup = { name: 'ACE inhibitor', classes: ['ace-inhibitor'], ingredients: [] };

/**
 * Drugs that must not be started while potassium is a concern: potassium supplements, potassium-sparing diuretics,
 * MRAs, NSAIDs, trimethoprim (KDIGO 2024 3.10), and other RAS blockers (ARB, ARNI, direct renin inhibitor: rec. 3.6.4
 * forbids dual blockade, and a swap keeps the potassium load).
 */
export const POTASSIUM_RAISING: DrugGroup[] = [
  { name: 'potassium supplement', classes: ['potassium-supplement'], ingredients: [] },
  { name: 'potassium-sparing diuretic', classes: ['potassium-sparing-diuretic'], ingredients: [] },
  { name: 'mineralocorticoid receptor antagonist', classes: ['mra'], ingredients: [] },
  { name: 'NSAID', classes: ['nsaid'], ingredients: [] },
  { name: 'trimethoprim', classes: [], ingredients: ['trimethoprim'] },
  { name: 'ARB', classes: ['arb'], ingredients: [] },
  { name: 'ARNI', classes: ['arni'], ingredients: [] },
  { name: 'direct renin inhibitor', classes: ['renin-inhibitor'], ingredients: [] },
];

/** Potassium supplements and potassium-sparing diuretics: stopped at K >= HIGH (the first step of KDIGO 2024 3.10). */
export const STOP_AT_HIGH = POTASSIUM_RAISING.slice(0, 2);

/** Therapies that lower potassium while the ACE inhibitor continues (KDIGO 2024 3.10). */
export const POTASSIUM_LOWERING: DrugGroup[] = [
  { name: 'potassium binder', classes: ['potassium-binder'], ingredients: [] },
  { name: 'loop diuretic', classes: ['loop-diuretic'], ingredients: [] },
  { name: 'thiazide diuretic', classes: ['thiazide'], ingredients: [] },
];

/** SNOMED CT 14140009 Hyperkalemia, for an order's statusReason. */
export const HYPERKALEMIA = { system: SNOMED, code: '14140009', display: 'Hyperkalemia' };
