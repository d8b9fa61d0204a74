// Clinical facts of the asthma controller review, shared as data by the grader and the reference solution: how
// control is measured (Asthma Control Test), how adherence is read from the pharmacy fills, when lung function is
// current, and which drugs are a GINA step up, an acceptable controller, or over-treatment. Each side reads the chart
// and applies these facts with its own code, so the oracle can catch an error in the grader.

export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';

export const ASTHMA = { system: SNOMED, code: '195967001' };
export const COPD = { system: SNOMED, code: '13645005' };
export const SPIROMETRY = { system: SNOMED, code: '127783003' };

/** Asthma Control Test total score (LOINC 82668-5, panel 82674-3): 20-25 well controlled, <= 19 not well controlled. */
export const ACT_TOTAL = { system: LOINC, code: '82668-5' };
export const ACT_WELL_CONTROLLED_MIN = 20;
/** The control assessment must be recent: an ACT within this many days of the consult. */
export const ACT_MAX_AGE_DAYS = 90;

/**
 * Adherence from pharmacy fills: the proportion of days covered (PDC) by the inhaled corticosteroid's dispenses over
 * the last ADHERENCE_WINDOW_DAYS. PDC >= ADHERENT_PDC is adherent (the PQA threshold); PDC <= POOR_PDC is poor. Charts
 * in between are not variants (either decision is defensible).
 */
export const ADHERENCE_WINDOW_DAYS = 180;
export const ADHERENT_PDC = 0.8;
export const POOR_PDC = 0.5;

/**
 * The decision (GINA 2024, Box 4-6 and its "before stepping up" checks):
 * - 'step-up': not well controlled (ACT <= 19) on medium-dose ICS although adherent -> ICS-LABA in one inhaler
 *   (Track 1 budesonide-formoterol maintenance and reliever, or Track 2 ICS-LABA with SABA);
 * - 'adherence-first': not well controlled with poor adherence -> no step up; address adherence and technique,
 *   review in 4-6 weeks;
 * - 'continue': well controlled (ACT >= 20) -> no step up; continue, or step the ICS down by 25-50% (GINA Box 4-13),
 *   never stop the ICS.
 */
export type ControllerDecision = 'step-up' | 'adherence-first' | 'continue';

/**
 * Lung function is current when the latest spirometry is at most this many days old (GINA 2024: record lung function
 * at diagnosis, 3-6 months after starting treatment and periodically thereafter, at least every 1-2 years); an older
 * one must be repeated (ordered or recommended).
 */
export const SPIROMETRY_CURRENT_DAYS = 730;

/** graders/lib/drug-classes.ts class ids. */
export const CLASSES = { ics: 'ics', laba: 'laba', lama: 'lama', steroid: 'systemic-corticosteroid' };
/** LABAs usable as an anti-inflammatory reliever with an ICS in one inhaler (GINA Track 1 MART: formoterol only). */
export const MART_LABA = ['formoterol'];
/** Short-acting relievers. */
export const RELIEVERS = ['albuterol', 'levalbuterol'];

/**
 * Add-on controllers that are not the next step from medium-dose ICS alone (GINA 2024 Box 4-6: leukotriene
 * receptor antagonists are "other controller options" with less efficacy than ICS-LABA - and montelukast carries the
 * FDA 2020 boxed warning for neuropsychiatric events; LAMA add-on and biologics are step 5, after medium/high-dose
 * ICS-LABA; theophylline is not recommended): started together with or instead of the ICS-LABA they are
 * over-treatment. Recognised by generic name through the drug vocabulary.
 */
export const NOT_NEXT_STEP = ['montelukast', 'zafirlukast', 'zileuton', 'theophylline', 'omalizumab', 'mepolizumab', 'reslizumab', 'benralizumab', 'dupilumab', 'tezepelumab'];
