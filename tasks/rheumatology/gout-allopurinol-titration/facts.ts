// Clinical facts of the gout treat-to-target task, shared as data by the grader and the reference solution: which
// results are serum urate and eGFR, the urate goal, how far allopurinol may go up in one step, when febuxostat is an
// acceptable alternative, and which anti-inflammatory add-ons are prophylaxis and which are over-treatment. Each side
// reads the chart and applies these facts with its own code, so the oracle can catch an error in the grader.

export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
export const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

/** Serum/plasma urate in mass concentration (the unit the goal is stated in), and the seed's flowsheet code. */
export const URATE_RESULTS = [{ system: LOINC, codes: ['3084-1'] }, { system: FLOWSHEET, codes: ['URIC'] }];
/** eGFR results (MDRD, CKD-EPI 2009 and 2021) and the flowsheet code. */
export const EGFR_RESULTS = [{ system: LOINC, codes: ['33914-3', '62238-1', '98979-8'] }, { system: FLOWSHEET, codes: ['EGFR'] }];

/** SNOMED CT 90560007 Gout. */
export const GOUT = { system: SNOMED, code: '90560007', display: 'Gout' };

/**
 * ACR 2020 treat-to-target: serum urate < 6 mg/dL (strong recommendation). A chart is a variant only when the latest
 * urate is clearly on one side: at or below AT_GOAL_MAX (at goal: keep the dose) or at or above ABOVE_GOAL_MIN
 * (titrate). Values within 0.2 mg/dL of the goal are left out: assay variability makes either decision defensible.
 */
export const URATE_GOAL_MG_DL = 6;
export const AT_GOAL_MAX = 5.8;
export const ABOVE_GOAL_MIN = 6.2;

/**
 * One titration step of allopurinol (ACR 2020: start low, raise every 2-5 weeks to target; 100 mg steps, 50 mg steps
 * in CKD stage 4 or worse, i.e. eGFR < SEVERE_CKD_EGFR): the new daily dose is the old one plus STEP_MG.normal or
 * STEP_MG.severeCkd (mg/day, inclusive ranges), never above the label maximum of 800 mg/day.
 */
export const SEVERE_CKD_EGFR = 30;
export const STEP_MG = { normal: { min: 50, max: 100 }, severeCkd: { min: 50, max: 50 } };
export const ALLOPURINOL_MAX_MG = 800;

/** Repeat urate within this many days of the change (ACR 2020: titrate every 2-5 weeks with serum urate monitoring). */
export const RECHECK_WITHIN_DAYS = 42;

/**
 * Febuxostat instead of allopurinol: acceptable only without established cardiovascular disease (FDA 2019 boxed
 * warning after CARES: higher cardiovascular and all-cause death; ACR 2020 recommends switching such patients away
 * from febuxostat), at the label's 40 mg or 80 mg daily (40 mg only with eGFR < 30: the label limits severe renal
 * impairment to 40 mg), with allopurinol stopped.
 */
export const FEBUXOSTAT_DOSES_MG = { normal: [40, 80], severeCkd: [40] };
/** Established cardiovascular disease (SNOMED CT): coronary disease, myocardial infarction, stroke, heart failure, PAD. */
export const CARDIOVASCULAR_DISEASE = [{
  system: SNOMED,
  codes: ['53741008', '22298006', '414545008', '230690007', '84114007', '399957001'],
}];
export const CARDIOVASCULAR_ICD10 = /^(I2[0-5]|I6[3-6]|I50|I70\.2|I73\.9|Z95\.[15])/;

/**
 * Anti-inflammatory add-ons while titrating: one prophylactic agent at a prophylactic dose is acceptable (ACR 2020:
 * colchicine is the usual choice; flares are common when urate falls), colchicine at most 1.2 mg/day, or 0.3 mg/day
 * with eGFR < 30 (FDA colchicine label: prophylaxis in severe renal impairment starts at 0.3 mg/day). There is no flare
 * in these charts, so a systemic corticosteroid (flare treatment) and stacking two anti-inflammatory agents are
 * over-treatment; NSAIDs are judged by the generic harm rules (CKD, anticoagulants). At goal nothing is titrated, so
 * no prophylaxis is indicated at all.
 */
export const COLCHICINE_MAX_MG_PER_DAY = { normal: 1.2, severeCkd: 0.3 };
export const ANTI_INFLAMMATORY_CLASSES = ['nsaid', 'systemic-corticosteroid'];
export const ANTI_INFLAMMATORY_INGREDIENTS = ['colchicine'];
/** Urate-lowering drugs other than allopurinol and febuxostat (add-on uricosurics, pegloticase): not a first step here. */
export const OTHER_URATE_LOWERING = ['probenecid', 'lesinurad', 'pegloticase'];
