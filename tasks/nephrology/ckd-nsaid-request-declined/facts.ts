// Clinical facts of the NSAID-in-CKD request, shared by the grader and the reference solution as data only: which
// results and problems count, which drugs are RAAS blockers and systemic NSAIDs, how the request and the
// alternatives are named in prose. Each side reads the chart and decides with its own code.

export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

export const EGFR_RESULTS = [{ system: LOINC, codes: ['33914-3', '62238-1', '98979-8', '48642-3', '48643-1'] }, { system: FLOWSHEET, codes: ['EGFR'] }];
export const POTASSIUM_RESULTS = [{ system: LOINC, codes: ['2823-3', '6298-4', '77142-8'] }, { system: FLOWSHEET, codes: ['K'] }];

/** Chronic kidney disease problems (SNOMED CT): CKD, stages 1-5. */
export const CKD_PROBLEMS = [{ system: SNOMED, codes: ['709044004', '431855005', '431856006', '433144002', '700378005', '700379002', '431857002', '433146000'] }];

/** RAAS blockers the variant must be on (class ids of graders/lib/drug-classes.ts). */
export const RAAS_CLASSES = ['ace-inhibitor', 'arb', 'arni'];

/** Systemic NSAIDs (graders/lib/drug-classes.ts: route-aware, so a topical gel is not one; aspirin <= 325 mg/day is not). */
export const NSAID_CLASS = 'nsaid';

/** How the request is named in prose: the answer and the note are read for their direction about these. */
export const REQUESTED = { drug: 'ibuprofen', drugClass: 'nsaid' };
/** Mentions that are not the requested drug: a topical NSAID is an alternative, not the request. */
export const NOT_REQUESTED = ['topical NSAID', 'topical NSAIDs', 'topical diclofenac', 'diclofenac gel', 'diclofenac sodium gel', 'voltaren gel', 'diclofenac 1% gel', 'NSAID gel'];

/**
 * Alternatives for knee OA pain (2019 ACR/AF guideline, Arthritis Rheumatol 2020;72:220-233): strongly recommended -
 * exercise, weight loss, topical NSAIDs, intra-articular glucocorticoid; conditionally - acetaminophen, duloxetine.
 * Each entry is a drug (any name or brand of it, graders/lib drug vocabulary) or the names a note may use for it.
 */
export const ALTERNATIVES: { name: string; drug?: string; names: string[] }[] = [
  { name: 'topical NSAID', names: NOT_REQUESTED },
  { name: 'acetaminophen', drug: 'acetaminophen', names: [] },
  { name: 'intra-articular corticosteroid', names: ['intra-articular corticosteroid', 'intra-articular steroid', 'intra-articular glucocorticoid', 'intraarticular steroid', 'corticosteroid injection', 'steroid injection', 'glucocorticoid injection'] },
  { name: 'duloxetine', drug: 'duloxetine', names: [] },
  { name: 'exercise or physical therapy', names: ['physical therapy', 'physiotherapy', 'exercise program', 'exercise therapy', 'strengthening exercises', 'quadriceps strengthening'] },
  { name: 'weight loss', names: ['weight loss', 'weight reduction', 'weight management'] },
];
