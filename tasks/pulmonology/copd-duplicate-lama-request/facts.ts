// Clinical facts of the COPD tiotropium-request task, shared as data by the grader and the reference solution: which
// drugs are long-acting muscarinic antagonists (LAMA), long-acting beta-2 agonists (LABA) and inhaled corticosteroids,
// the usual daily doses of the LAMAs, and when an inhaled corticosteroid may be added. Each side reads the chart and
// applies these facts with its own code.

export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';

export const COPD = { system: SNOMED, code: '13645005', display: 'Chronic obstructive lung disease' };
export const ASTHMA = { system: SNOMED, code: '195967001' };
export const SPIROMETRY = { system: SNOMED, code: '127783003' };

/** graders/lib/drug-classes.ts class ids of the inhaled maintenance classes (any code, brand, text or combination). */
export const CLASSES = { lama: 'lama', laba: 'laba', ics: 'ics' };

/** Short-acting relievers that must stay available (GOLD 2024: a rescue short-acting bronchodilator for everyone). */
export const RELIEVERS = ['albuterol', 'levalbuterol', 'ipratropium'];

/**
 * GOLD 2024 (chapter 3, Figure 4.3): persistent dyspnea on one long-acting bronchodilator -> LAMA + LABA; no LAMA yet
 * -> start one (LAMA + LABA preferred for group B, a LAMA alone acceptable); never two LAMAs or two LABAs.
 * Label dosing of the LAMAs (mcg/day and administrations per day): tiotropium 18 mcg (HandiHaler) or 5 mcg (Respimat,
 * 2 x 2.5 mcg) once daily; umeclidinium 62.5 mcg once daily; aclidinium 400 mcg twice daily; glycopyrrolate 15.6 mcg
 * (Seebri) or 25 mcg (Lonhala) twice daily; revefenacin nebulised once daily.
 */
export const LAMA_DOSING: Record<string, { mcgPerDay: number[]; timesPerDay: number }> = {
  tiotropium: { mcgPerDay: [5, 18], timesPerDay: 1 },
  umeclidinium: { mcgPerDay: [62.5], timesPerDay: 1 },
  aclidinium: { mcgPerDay: [800], timesPerDay: 2 },
  glycopyrrolate: { mcgPerDay: [31.2, 50], timesPerDay: 2 },
  glycopyrronium: { mcgPerDay: [31.2, 50], timesPerDay: 2 },
  revefenacin: { mcgPerDay: [175], timesPerDay: 1 },
};

/**
 * Inhaled corticosteroids in COPD belong to the exacerbation pathway (GOLD 2024 Figure 4.3: consider adding an ICS
 * with exacerbations and blood eosinophils >= 300 cells/uL; not for dyspnea alone, pneumonia risk). The consult is
 * about dyspnea, so an ICS is acceptable only when the latest blood eosinophil count reaches this (10*3/uL).
 */
export const ICS_MIN_EOSINOPHILS = 0.3;
/** Blood eosinophils, absolute count (LOINC 711-2). */
export const EOSINOPHILS = [{ system: LOINC, codes: ['711-2'] }];

/** A consult note is a DocumentReference of this LOINC type (any type is accepted). */
export const CONSULT_NOTE_TYPE = { system: LOINC, code: '11488-4', display: 'Consult note' };
