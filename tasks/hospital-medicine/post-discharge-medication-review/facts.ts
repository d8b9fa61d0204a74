// Clinical facts of the post-discharge medication reconciliation, shared by the grader and the reference solution as
// data only: where the discharge medication list lives in the chart, how closely a dose must match, and what the
// reconciliation must do with each kind of difference. Each side reads the chart and compares with its own code.

export const LOINC = 'http://loinc.org';

/** The discharge summary (LOINC 18842-5), a Composition of the hospital stay. */
export const DISCHARGE_SUMMARY = { system: LOINC, code: '18842-5' };
/** Its section "Hospital discharge medications" (LOINC 10183-2): MedicationStatements the patient goes home on. */
export const DISCHARGE_MEDICATIONS_SECTION = { system: LOINC, code: '10183-2' };
/** The other section the summary lists medications in: drugs stopped during the stay (MedicationStatement status
 * stopped). Its title is all that names it (no LOINC code is in common use for it). */
export const STOPPED_STATUS = 'stopped';

/** Daily doses are the same when they differ by at most this fraction (rounding of tablet strengths). */
export const DOSE_TOLERANCE = 0.01;

/**
 * What a reconciliation does with each difference between the discharge list and the active outpatient orders
 * (Joint Commission NPSG.03.06.01; WHO High 5s medication reconciliation SOP):
 * - stop: a drug the summary stopped is still ordered -> the order is stopped (its history kept, never deleted);
 * - start: a drug on the discharge list has no order -> one order at the discharge dose;
 * - change: the ordered daily dose differs from the discharge dose -> one active order at the discharge dose (the old
 *   order changed, or stopped and replaced);
 * - continue: the same drug at the same dose -> left as it is.
 */
export type Reconciliation = 'stop' | 'start' | 'change' | 'continue';
