// Clinical facts of the HbA1c goal question, shared as data by the grader and the reference solution. Each side reads
// the chart and decides with its own code.
//
// ADA Standards of Care in Diabetes 2024, section 6 (Diabetes Care 2024;47(Suppl 1):S111-S125):
// - rec. 6.5a: an A1C goal of < 7% (53 mmol/mol) without significant hypoglycemia is appropriate for many nonpregnant
//   adults;
// - rec. 6.7 (applied to older adults in section 13): less stringent goals (< 8%) may be appropriate with multiple
//   chronic illnesses or limited life expectancy.
// The question names the goal (< 7%), so "at goal" means below 7.0%. Where an individualised < 8% goal could
// defensibly be argued instead (aged 65 or more with a latest A1c of 7.0-7.9%) the answer would depend on the
// reader's choice of goal, so such patients are never variants.

export const LOINC = 'http://loinc.org';
/** The seed's local flowsheet code system: some laboratories file the result only under their own code. */
export const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

/** HbA1c results: LOINC 4548-4 (Hemoglobin A1c/Hemoglobin.total in Blood) or the local flowsheet code A1C. */
export const A1C = [{ system: LOINC, codes: ['4548-4'] }, { system: FLOWSHEET, codes: ['A1C'] }];

/** The goal the question names: strictly below 7.0 %. */
export const GOAL_PERCENT = 7.0;
/** The less stringent goal an older adult with comorbidity may be given (ADA 2024, 6.7 / 13). */
export const LESS_STRINGENT_PERCENT = 8.0;
export const OLDER_ADULT_AGE = 65;
