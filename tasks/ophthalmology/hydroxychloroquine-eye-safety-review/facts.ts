// Clinical facts of the hydroxychloroquine safety review (AAO 2016 recommendations on screening for chloroquine and
// hydroxychloroquine retinopathy), shared by the grader and the reference solution as data only: the dose ceiling,
// the screening schedule, the major risk factors and where each input lives in the chart. Each side reads the chart
// and decides with its own code.

export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const CPT = 'http://www.ama-assn.org/go/cpt';

/** Hydroxychloroquine: the RxNorm ingredient (its products, names and the Plaquenil brand are graders/lib's vocabulary). */
export const HCQ = { ingredient: 'hydroxychloroquine', rxcui: '5521' };

/**
 * AAO 2016: a maximum daily dose of hydroxychloroquine sulfate of 5.0 mg/kg of real (actual) body weight; the dose may
 * be averaged over the week (e.g. 400 mg on some days, 200 mg on others). The latest weight is the real weight.
 */
export const MAX_MG_PER_KG = 5.0;
/** A lowered dose is still a maintenance dose: stopping is not the correction for an excess (lupus flares). */
export const MIN_MAINTENANCE_MG_PER_DAY = 100;

/**
 * AAO 2016 screening schedule: a baseline fundus examination (with SD-OCT and fields if maculopathy is present) within
 * the first year of use; annual screening with SD-OCT and automated visual fields after 5 years of use, or from the
 * start (after the baseline) in patients with major risk factors.
 */
export const SCREENING = { baselineWithinYears: 1, annualAfterYears: 5, intervalMonths: 12 };

/**
 * AAO 2016 major risk factors: a daily dose above 5.0 mg/kg real weight, duration over 5 years (the schedule above),
 * renal disease (here: latest eGFR < 60 or a CKD stage 3-5 problem), concomitant tamoxifen, and macular disease that
 * may confound or add to the risk.
 */
export const RISK = { egfrBelow: 60, drugs: ['tamoxifen'], maculopathyWords: ['macular degeneration', 'maculopathy', 'macular'] };
export const MACULOPATHY = [{ system: SNOMED, codes: ['267718000', '414173003', '312956001'] }]; // AMD, exudative AMD, central serous
export const CKD_3_TO_5 = [{ system: SNOMED, codes: ['433144002', '431857002', '433146000', '700378005', '700379002'] }];

export const BODY_WEIGHT = [{ system: LOINC, codes: ['29463-7', '3141-9'] }];
export const EGFR = [{ system: LOINC, codes: ['98979-8', '33914-3', '62238-1', '48642-3', '48643-1'] }];

/** Prior screening examinations as Procedures: SD-OCT of the retina (CPT 92134) and automated visual fields (92083). */
export const SCREENING_EXAMS = [{ system: CPT, codes: ['92134', '92083', '92082'] }];
