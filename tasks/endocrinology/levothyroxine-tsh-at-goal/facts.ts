// Clinical facts of the levothyroxine dose question, shared as data by the grader and the reference solution: where
// TSH and free T4 live in the chart, levothyroxine's codes and names, the reference range, and the TSH zones in which
// every careful physician makes the same decision. Each side reads the chart and decides with its own code.
//
// ATA Guidelines for the Treatment of Hypothyroidism (Jonklaas et al., Thyroid 2014;24(12):1670-1751):
// - recommendation 17 / 22: levothyroxine is titrated to a serum TSH within the reference range; symptoms alone (e.g.
//   fatigue) with a TSH in range are not a reason to raise the dose (over-replacement: atrial fibrillation, bone loss);
// - dose changes in increments of 12.5-25 mcg/day (larger for a larger TSH deviation), TSH rechecked 6-8 weeks later;
// - a suppressed TSH on levothyroxine for primary hypothyroidism (not thyroid cancer) is iatrogenic thyrotoxicosis:
//   lower the dose.
// Zones where guidance allows either choice are never variants: TSH 0.1-0.4 (mildly low: keep or lower), 4.0-10
// (mildly high: older adults may run a higher target, and adherence or timing with food may be fixed first).

export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
export const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

export const TSH = [{ system: LOINC, codes: ['3016-3', '11580-8'] }, { system: FLOWSHEET, codes: ['TSH'] }];
export const FREE_T4 = [{ system: LOINC, codes: ['3024-7'] }, { system: FLOWSHEET, codes: ['FT4'] }];
export const HYPOTHYROIDISM = { system: SNOMED, code: '40930008' };

/** Levothyroxine: the RxNorm ingredient (its names and brands are graders/lib's drug vocabulary). */
export const LEVOTHYROXINE = { ingredient: '10582' };

/** The laboratory's TSH reference range (mIU/L) the chart's results are flagged against. */
export const TSH_RANGE = { low: 0.4, high: 4.0 };

/** TSH zones with one defensible decision (mIU/L): suppressed -> lower the dose, in range -> no change, clearly high
 * (>= 10) -> raise it. A TSH older than `maxAgeDays` is too old to act on without a recheck. */
export const ZONES = { suppressedBelow: 0.1, inRange: TSH_RANGE, clearlyHighFrom: 10, maxAgeDays: 365 };

/** A dose change is a step of 12.5 to 50 mcg/day (ATA 2014: 12.5-25 mcg, more for a large TSH deviation). */
export const STEP_MCG = { min: 12.5, max: 50 };

export type Decision = 'increase' | 'no-change' | 'reduce';
