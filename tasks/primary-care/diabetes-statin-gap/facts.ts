// Clinical facts of the statin-gap question, shared as data by the grader and the reference solution; each computes
// eligibility and statin coverage with its own code.
//
// ADA Standards of Care in Diabetes 2025, section 10 (Diabetes Care 2025;48(Suppl 1):S207-S238), rec. 10.18: people with
// diabetes aged 40-75 years without ASCVD should use moderate-intensity statin therapy in addition to lifestyle
// therapy. NCQA HEDIS Statin Therapy for Patients With Diabetes (SPD) uses the same ages.

export const MIN_AGE = 40;
export const MAX_AGE = 75;

/** Statins by ingredient name (graders/lib/drug-classes 'statin' holds the same list with its source). */
export const STATIN_CLASS = 'statin';
export const STATIN_INGREDIENTS = ['atorvastatin', 'rosuvastatin', 'simvastatin', 'pravastatin', 'lovastatin', 'fluvastatin', 'pitavastatin'];

/** An order that is in force: status active (stopped, completed, on-hold, cancelled, draft do not count). */
export const ACTIVE_STATUS = 'active';
/** Intents that are prescriptions (a proposal is not). */
export const ORDER_INTENTS = ['order', 'original-order', 'reflex-order', 'filler-order', 'instance-order', 'plan'];
