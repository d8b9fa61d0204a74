// Clinical facts of metformin and kidney function, shared as data by the grader and the reference solution: where
// eGFR lives in the chart, metformin's codes and names, and the eGFR thresholds of the label and KDIGO. Each side
// reads the chart and decides with its own code.
//
// FDA Drug Safety Communication (2016-04-08), revised metformin labeling: contraindicated at eGFR < 30; starting it at
// eGFR 30-45 not recommended; when eGFR falls below 45 in a patient taking it, assess benefit and risk.
// KDIGO 2022 Diabetes in CKD (Kidney Int 2022;102(5S):S1-S127), practice point 4.1.x (Figure 13): eGFR >= 60 usual
// dose, monitor yearly; 45-59 continue the same dose, monitor every 3-6 months; 30-44 halve the dose (at most
// 1000 mg/day), monitor every 3-6 months; < 30 stop. A decision is made on a confirmed value: the latest two eGFRs
// in the same band (a single value that crosses a threshold is rechecked first, so such charts are not variants).

export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
export const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

export const EGFR = [{ system: LOINC, codes: ['33914-3', '62238-1', '48642-3', '48643-1', '98979-8', '50044-7'] }, { system: FLOWSHEET, codes: ['EGFR'] }];
export const TYPE_2_DIABETES = { system: SNOMED, code: '44054006' };

/** Metformin: the RxNorm ingredient (its names and brands are graders/lib's drug vocabulary). */
export const METFORMIN = { ingredient: '6809' };

/** eGFR bands (mL/min/1.73 m2): below `stopBelow` stop; below `reduceBelow` at most `reducedMaxMgPerDay`; else continue. */
export const EGFR_BANDS = { stopBelow: 30, reduceBelow: 45, reducedMaxMgPerDay: 1000 };

export type Decision = 'continue' | 'reduce' | 'stop';
