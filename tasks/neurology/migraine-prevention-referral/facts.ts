// Clinical facts of the migraine prevention consult, shared by the grader and the reference solution as data only:
// the preventives the AHS 2021 consensus (with the AAN/AHS 2012 evidence levels) supports with their usual starting
// daily dose ranges, and what in the chart rules each out. Drugs are recognised through graders/lib/drugs.ts
// (ingredient names from any RxNorm code, brand or text) and graders/lib/drug-classes.ts. Each side reads the chart
// and decides with its own code.

export const SNOMED = 'http://snomed.info/sct';
export const ICD10 = 'http://hl7.org/fhir/sid/icd-10-cm';

export const ASTHMA = [{ system: SNOMED, codes: ['195967001'] }, { system: ICD10, codes: ['J45.909', 'J45.20', 'J45.30', 'J45.40', 'J45.50', 'J45.901', 'J45.902', 'J45.998'] }];
export const PREGNANCY = [{ system: SNOMED, codes: ['77386006'] }, { system: ICD10, codes: ['Z33.1', 'Z34.90', 'Z34.91', 'Z34.92', 'Z34.93'] }];
export const NEUROLOGY = [{ system: SNOMED, codes: ['394591006'] }];

export interface Preventive {
  ingredient: string;
  /** Usual starting-to-target daily dose (mg/day) for a first prescription; undefined = injectable given monthly or quarterly. */
  perDay?: [number, number];
  evidence: string;
}

/**
 * Preventives for episodic migraine: AAN/AHS 2012 level A (divalproex/valproate, topiramate, metoprolol,
 * propranolol, timolol) and level B (amitriptyline, venlafaxine, atenolol, nadolol), nortriptyline and candesartan
 * as AHS 2021 options, and the CGRP-targeting preventives (erenumab, fremanezumab, galcanezumab, eptinezumab,
 * atogepant, rimegepant), which the AHS 2024 position statement accepts as a first-line option.
 */
export const PREVENTIVES: Preventive[] = [
  { ingredient: 'topiramate', perDay: [25, 100], evidence: 'AAN/AHS level A' },
  { ingredient: 'valproic acid', perDay: [250, 1000], evidence: 'AAN/AHS level A (divalproex)' },
  { ingredient: 'propranolol', perDay: [40, 160], evidence: 'AAN/AHS level A' },
  { ingredient: 'metoprolol', perDay: [25, 200], evidence: 'AAN/AHS level A' },
  { ingredient: 'timolol', perDay: [10, 30], evidence: 'AAN/AHS level A' },
  { ingredient: 'atenolol', perDay: [25, 100], evidence: 'AAN/AHS level B' },
  { ingredient: 'nadolol', perDay: [20, 160], evidence: 'AAN/AHS level B' },
  { ingredient: 'amitriptyline', perDay: [10, 50], evidence: 'AAN/AHS level B' },
  { ingredient: 'nortriptyline', perDay: [10, 50], evidence: 'AHS 2021 option' },
  { ingredient: 'venlafaxine', perDay: [37.5, 150], evidence: 'AAN/AHS level B' },
  { ingredient: 'candesartan', perDay: [4, 16], evidence: 'AHS 2021 option' },
  { ingredient: 'atogepant', perDay: [10, 60], evidence: 'AHS 2021/2024 CGRP-targeting' },
  { ingredient: 'rimegepant', perDay: [37.5, 75], evidence: 'AHS 2021/2024 CGRP-targeting (75 mg every other day)' },
  { ingredient: 'erenumab', evidence: 'AHS 2021/2024 CGRP monoclonal antibody' },
  { ingredient: 'fremanezumab', evidence: 'AHS 2021/2024 CGRP monoclonal antibody' },
  { ingredient: 'galcanezumab', evidence: 'AHS 2021/2024 CGRP monoclonal antibody' },
  { ingredient: 'eptinezumab', evidence: 'AHS 2021/2024 CGRP monoclonal antibody' },
];

/** Beta blockers: the drug-classes class, plus timolol (an oral migraine preventive the class table lacks). */
export const BETA_BLOCKER_CLASS = 'beta-blocker';
export const EXTRA_BETA_BLOCKERS = ['timolol'];
export const SSRI_CLASS = 'ssri';
export const TRIPTAN_CLASS = 'triptan';

/** Teratogens or drugs without pregnancy safety data, avoided in pregnancy (FDA labels; AHS 2021 consensus). */
export const AVOID_IN_PREGNANCY = ['valproic acid', 'topiramate', 'candesartan', 'erenumab', 'fremanezumab', 'galcanezumab', 'eptinezumab', 'atogepant', 'rimegepant'];
/** Valproate is avoided in women who may become pregnant (FDA boxed warning; AAN/AHS 2012): under this age. */
export const VALPROATE = 'valproic acid';
export const CHILDBEARING_AGE_LIMIT = 50;
/** Serotonin syndrome risk: venlafaxine on top of an SSRI. */
export const SEROTONERGIC_PREVENTIVES = ['venlafaxine'];

/** How a referral names neurology or the headache clinic. */
export const NEUROLOGY_WORDS = ['neurology', 'neurologist', 'headache clinic', 'headache medicine'];
