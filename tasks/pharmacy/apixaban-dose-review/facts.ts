// Clinical facts of the apixaban dose review, shared by the grader and the reference solution as data only: the
// label's dose rule for nonvalvular AF, the drug's codes and names, and where the dosing inputs live in the chart.
// Each side counts the criteria and picks the dose with its own code.

export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

/** Apixaban: the RxNorm ingredient (its products, strengths, names and brands are graders/lib's drug vocabulary). */
export const APIXABAN = { ingredient: '1364430' };

/**
 * ELIQUIS (apixaban) prescribing information, section 2.2 (reduction of risk of stroke in nonvalvular AF): 5 mg
 * orally twice daily; 2.5 mg twice daily in patients with at least 2 of: age >= 80 years, body weight <= 60 kg,
 * serum creatinine >= 1.5 mg/dL. Neither eGFR nor creatinine clearance is part of the rule.
 */
export const LABEL = { standardMg: 5, reducedMg: 2.5, timesPerDay: 2, reduceWhenAtLeast: 2, ageAtLeast: 80, weightAtMostKg: 60, creatinineAtLeastMgDl: 1.5 };

export const CREATININE = [{ system: LOINC, codes: ['2160-0', '38483-4'] }, { system: FLOWSHEET, codes: ['CREAT'] }];
export const BODY_WEIGHT = [{ system: LOINC, codes: ['29463-7', '3141-9'] }, { system: FLOWSHEET, codes: ['WEIGHT', 'WT'] }];
export const ATRIAL_FIBRILLATION = { system: SNOMED, code: '49436004' };

