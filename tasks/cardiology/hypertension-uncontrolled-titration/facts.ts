// Clinical facts of the hypertension review task, shared as data by the grader and the reference solution: which
// results are blood pressure, potassium and eGFR, the ACC/AHA goal, and which intensifications are first-line at which
// doses. Each side reads the chart and applies these facts with its own code, so the oracle can catch an error in the
// grader.

export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
export const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

export const BP_PANELS = [{ system: LOINC, codes: ['85354-9'] }, { system: FLOWSHEET, codes: ['BP'] }];
export const SYSTOLIC = '8480-6';
export const DIASTOLIC = '8462-4';
export const POTASSIUM_RESULTS = [{ system: LOINC, codes: ['2823-3', '6298-4'] }, { system: FLOWSHEET, codes: ['K'] }];
export const EGFR_RESULTS = [{ system: LOINC, codes: ['33914-3', '62238-1', '98979-8'] }, { system: FLOWSHEET, codes: ['EGFR'] }];
export const HYPERTENSION = [{ system: SNOMED, codes: ['59621000', '38341003'] }];
export const HEART_FAILURE = [{ system: SNOMED, codes: ['84114007', '88805009', '703272007', '42343007', '85232009'] }];

/**
 * ACC/AHA 2017 goal for treated adults: < 130/80 mmHg (sections 8.1.5 and 9). The decision reads the two latest office
 * readings: both at or above goal (systolic >= 130 or diastolic >= 80) = above goal, both below = at goal; charts with
 * one of each are not variants (a careful physician would remeasure first).
 */
export const GOAL = { systolic: 130, diastolic: 80 };
/**
 * Stage 2 range, more than 20/10 mmHg above the goal (ACC/AHA 2017 8.1.6.1: two first-line agents of different classes
 * for BP > 20/10 above target): here two intensification steps at once are acceptable; otherwise one.
 */
export const FAR_ABOVE = { systolic: 150, diastolic: 90 };

/** Raising the ACE inhibitor needs a latest potassium at or below this (mmol/L); above it the ACE inhibitor stays. */
export const ACE_UP_TITRATION_MAX_K = 5.0;
/** Thiazide-type diuretics need this eGFR (mL/min/1.73 m2), chlorthalidone down to the lower one (CLICK, NEJM 2021). */
export const THIAZIDE_MIN_EGFR = { default: 30, chlorthalidone: 15 };

/** A first-line agent (ACC/AHA 2017 Table 18 primary agents) with its usual daily dose range (mg/day, inclusive). */
export interface FirstLineAgent {
  ingredient: string;
  /** graders/lib/drug-classes.ts class id, to tell classes apart. */
  classId: string;
  minMg: number;
  maxMg: number;
}

/** ACC/AHA 2017 Table 18: usual daily doses of the primary agents a clinician adds to an ACE inhibitor. */
export const ADD_ON_AGENTS: FirstLineAgent[] = [
  { ingredient: 'chlorthalidone', classId: 'thiazide', minMg: 12.5, maxMg: 25 },
  { ingredient: 'hydrochlorothiazide', classId: 'thiazide', minMg: 12.5, maxMg: 50 },
  { ingredient: 'indapamide', classId: 'thiazide', minMg: 1.25, maxMg: 2.5 },
  { ingredient: 'amlodipine', classId: 'calcium-channel-blocker', minMg: 2.5, maxMg: 10 },
  { ingredient: 'felodipine', classId: 'calcium-channel-blocker', minMg: 2.5, maxMg: 10 },
  { ingredient: 'nifedipine', classId: 'calcium-channel-blocker', minMg: 30, maxMg: 90 },
  { ingredient: 'diltiazem', classId: 'calcium-channel-blocker', minMg: 120, maxMg: 360 },
  { ingredient: 'verapamil', classId: 'calcium-channel-blocker', minMg: 120, maxMg: 480 },
];

/** The ACE inhibitor the patients take and its usual range (ACC/AHA 2017 Table 18: lisinopril 10-40 mg/day). */
export const LISINOPRIL = { ingredient: 'lisinopril', maxMg: 40 };

/**
 * Classes that are no first-line intensification of ACE inhibitor monotherapy: ARBs, ARNI and aliskiren (dual RAAS
 * blockade, avoided: ACC/AHA 2017 8.1.6, ONTARGET), MRAs and potassium-sparing diuretics (reserved for resistant
 * hypertension; hyperkalemia with an ACE inhibitor), beta blockers without a compelling indication (Table 18: not
 * first-line unless ischemic heart disease, heart failure or rate control), loop diuretics (for volume or eGFR < 30).
 */
export const NOT_ADD_ON_CLASSES = ['arb', 'arni', 'renin-inhibitor', 'mra', 'potassium-sparing-diuretic', 'beta-blocker', 'loop-diuretic', 'potassium-supplement'];
/** Non-antihypertensive drugs that raise potassium on an ACE inhibitor (KDIGO 2024 CKD 3.10): never part of this plan. */
export const POTASSIUM_RAISING_CLASSES = ['potassium-supplement', 'nsaid'];
/** Conditions that make a beta blocker a reasonable choice (SNOMED CT): coronary disease, MI, atrial fibrillation, HF. */
export const BETA_BLOCKER_INDICATIONS = [{ system: SNOMED, codes: ['53741008', '22298006', '414545008', '49436004', '84114007'] }];

/** Every antihypertensive class the regimen is read from. */
export const ANTIHYPERTENSIVE_CLASSES = ['ace-inhibitor', 'arb', 'arni', 'renin-inhibitor', 'thiazide', 'calcium-channel-blocker', 'beta-blocker', 'mra', 'potassium-sparing-diuretic', 'loop-diuretic'];
/** Antihypertensives outside those classes (alpha blockers, central agents, vasodilators), by generic name. */
export const OTHER_ANTIHYPERTENSIVES = ['clonidine', 'doxazosin', 'terazosin', 'prazosin', 'hydralazine', 'minoxidil', 'methyldopa', 'guanfacine'];

/**
 * Follow-up chemistry (potassium and creatinine: BMP, CMP, renal panel, K, creatinine) is required within this many
 * days when the change can move potassium or creatinine: an ACE inhibitor/ARB dose change or a new diuretic
 * (ACC/AHA 2017 8.1.4; KDIGO 2021 BP in CKD: check 2-4 weeks after starting or changing RAS blockade or diuretics).
 */
export const LAB_RECHECK_DAYS = 31;
export const LAB_AFFECTING_CLASSES = ['ace-inhibitor', 'arb', 'thiazide', 'loop-diuretic', 'mra', 'potassium-sparing-diuretic'];
