// Clinical facts of the HFrEF GDMT review, shared by the grader and the reference solution as data only: the four
// pillars, when a missing one may be started, and at which doses. Each side reads the chart and decides with its own
// code, so the oracle can catch an error in the grader.

export const LOINC = 'http://loinc.org';
export const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

export const EGFR_RESULTS = [{ system: LOINC, codes: ['33914-3', '62238-1', '48642-3', '98979-8'] }, { system: FLOWSHEET, codes: ['EGFR'] }];
export const POTASSIUM_RESULTS = [{ system: LOINC, codes: ['2823-3', '6298-4', '77142-8'] }, { system: FLOWSHEET, codes: ['K'] }];

export type PillarId = 'beta-blocker' | 'raas' | 'mra' | 'sglt2';

export interface Pillar {
  id: PillarId;
  name: string;
  /** Drug class ids of graders/lib/drug-classes.ts that fill the pillar. */
  classes: string[];
  /** Drug classes or groups (graders/lib/drug-classes.ts) whose naming names the pillar in an answer: a member
   * ("spironolactone", "Entresto") or the class itself ("MRA", "SGLT2i", "RAAS blocker"). */
  mentions: string[];
}

/** 2022 AHA/ACC/HFSA heart failure guideline, section 7.3: the four medication pillars of HFrEF. */
export const PILLARS: Pillar[] = [
  { id: 'beta-blocker', name: 'beta blocker', classes: ['beta-blocker'], mentions: ['beta-blocker'] },
  { id: 'raas', name: 'ACE inhibitor/ARB/ARNI', classes: ['ace-inhibitor', 'arb', 'arni'], mentions: ['raas-blocker'] },
  { id: 'mra', name: 'MRA', classes: ['mra'], mentions: ['mra'] },
  { id: 'sglt2', name: 'SGLT2 inhibitor', classes: ['sglt2-inhibitor'], mentions: ['sglt2-inhibitor'] },
];

/**
 * When a missing pillar may be started (2022 AHA/ACC/HFSA guideline):
 * - SGLT2 inhibitor (7.3.4, class 1): the trials enrolled eGFR >= 20 (EMPEROR-Reduced) / 25 (DAPA-HF); below 20 it is
 *   not started. The eGFR side must hold on every result of SGLT2_SUSTAINED_DAYS before the latest, else no variant;
 * - MRA (7.3.3, class 1 when eGFR > 30 and K < 5.0; class 3 harm when K cannot be kept < 5.5 or eGFR <= 30).
 */
export const SGLT2_MIN_EGFR = 20;
export const SGLT2_SUSTAINED_DAYS = 90;
export const MRA_MIN_EGFR_EXCLUSIVE = 30;
export const MRA_MAX_POTASSIUM_EXCLUSIVE = 5.0;

/** HFrEF starting doses (2022 AHA/ACC/HFSA Table 12; 2024 ACC ECDP for HFrEF), mg per day by mouth. */
export const START_DOSES: Record<'sglt2' | 'mra', { ingredient: string; mgPerDay: [number, number]; timesPerDay?: number }[]> = {
  sglt2: [
    { ingredient: 'dapagliflozin', mgPerDay: [10, 10], timesPerDay: 1 },
    { ingredient: 'empagliflozin', mgPerDay: [10, 10], timesPerDay: 1 },
    { ingredient: 'sotagliflozin', mgPerDay: [200, 200], timesPerDay: 1 },
  ],
  mra: [
    // 12.5-25 mg once daily, or 25 mg every other day where renal function or potassium calls for it.
    { ingredient: 'spironolactone', mgPerDay: [12.5, 25] },
    { ingredient: 'eplerenone', mgPerDay: [12.5, 25] },
  ],
};

/** ACE inhibitor and ARNI together: angioedema (2022 AHA/ACC/HFSA 7.3.1, class 3 harm; 36-hour washout). */
export const NEVER_TOGETHER: [string, string] = ['ace-inhibitor', 'arni'];
