// Clinical facts of the incidental pulmonary nodule consult, shared as data by the grader and the reference solution:
// the Fleischner Society 2017 size thresholds and follow-up intervals, how the radiology reports state a nodule, what
// makes a patient high risk, and how long a solid nodule must be unchanged to be benign. Each side reads the reports
// and decides with its own code.

export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const ICD10CM = 'http://hl7.org/fhir/sid/icd-10-cm';
export const CPT = 'http://www.ama-assn.org/go/cpt';

/** The problem-list entry the consult is about (ICD-10-CM R91.1 solitary pulmonary nodule). */
export const PULMONARY_NODULE = { system: ICD10CM, code: 'R91.1' };
/** Radiology reports: DiagnosticReport category v2-0074 RAD. */
export const RADIOLOGY = { system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'RAD' };
/** Tobacco smoking status (LOINC 72166-2); its value is SNOMED: current (77176002, 449868002, 428041000124106,
 * 428071000124103, 65568007) or former (8517006) smokers are not "minimal or absent smoking history". */
export const SMOKING_STATUS = { system: LOINC, code: '72166-2' };
export const SMOKER_CODES = ['77176002', '449868002', '428041000124106', '428071000124103', '65568007', '8517006'];

/**
 * How the reports state a nodule: "<long> x <short> mm <type> nodule" (type: solid, part-solid, ground-glass).
 * Fleischner 2017: size is the average of the long and short axes, rounded to the nearest millimetre.
 */
export const NODULE_IN_REPORT = /(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)\s*mm\s+(?:pure\s+|spiculated\s+)?(solid|part-solid|ground-glass)\s+nodule/i;

/**
 * Fleischner Society 2017 (MacMahon H et al. Radiology 2017;284:228-243), Table 1, single nodules:
 * - solid < 6 mm: low risk no routine follow-up; high risk optional CT at 12 months;
 * - solid 6-8 mm: CT at 6-12 months (then 18-24 months: considered at low risk, recommended at high risk);
 * - solid > 8 mm: consider CT at 3 months, PET/CT or tissue sampling;
 * - ground-glass < 6 mm: none; >= 6 mm: CT at 6-12 months to confirm persistence, then every 2 years until 5 years;
 * - part-solid < 6 mm: none; >= 6 mm: CT at 3-6 months.
 * A solid nodule unchanged for 2 years or more is benign: no further follow-up. Growth is an increase of 2 mm or
 * more in mean diameter.
 */
export const FLEISCHNER = {
  solid: { smallBelowMm: 6, largeAboveMm: 8 },
  subsolidThresholdMm: 6,
  intervalsMonths: { ct6to12: [6, 12], optional12: [12, 12], ct3: [3, 3], ct3to6: [3, 6] },
  stableYears: 2,
  growthMm: 2,
} as const;

/** Slack around an interval for scheduling (a CT booked two weeks outside 6-12 months is still that CT). */
export const SCHEDULING_SLACK_DAYS = 14;
/** "At 3 months" and "at 12 months" as windows: a month either side. */
export const POINT_INTERVAL_SLACK_MONTHS = 1;
