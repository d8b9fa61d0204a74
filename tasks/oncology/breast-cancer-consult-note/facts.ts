// Clinical facts of the breast cancer survivorship consult, shared by the grader and the reference solution as data
// only: which problems, results and orders count, and how surveillance tests are named in prose. Each side reads the
// chart and decides with its own code.

export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

export const BREAST_CANCER = [{ system: SNOMED, codes: ['254837009'] }];
export const HEMOGLOBIN = [{ system: LOINC, codes: ['718-7'] }, { system: FLOWSHEET, codes: ['HGB'] }];
export const CREATININE = [{ system: LOINC, codes: ['2160-0', '38483-4'] }, { system: FLOWSHEET, codes: ['CREAT'] }];

/** Tumor markers (LOINC: CA 15-3, CA 27.29, CEA) and staging scans (SNOMED: PET, CT, PET/CT, bone scan; CPT PET/CT and bone scan). */
export const MARKER_OR_SCAN = [
  { system: LOINC, codes: ['6875-9', '17842-6', '2039-6', '83098-4'] },
  { system: SNOMED, codes: ['82918005', '77477000', '450436003', '41747008', '418272005', '169069000'] },
  { system: 'http://www.ama-assn.org/go/cpt', codes: ['78815', '78816', '78306', '78300', '71260', '74177', '86300', '82378'] },
];
export const MARKER_OR_SCAN_WORDS = /\b(ca ?15-3|ca ?27[.-]29|cea|carcinoembryonic|tumou?r markers?|pet|positron|ct|computed tomography|cat scan|bone scan|scintigraph)\b/i;

/**
 * After a bilateral mastectomy there is no breast left to image: surveillance mammography is not indicated (ASCO
 * 2013/ACS-ASCO 2016; NCCN survivorship: mammography every 12 months for a conserved or contralateral breast). No
 * procedure code for it is held in our vocabulary, so it is recognised by the procedure's words.
 */
export const BILATERAL_MASTECTOMY_WORDS = ['bilateral mastectomy', 'bilateral total mastectomy', 'bilateral simple mastectomy', 'bilateral skin-sparing mastectomy', 'double mastectomy', 'mastectomy, bilateral'];

/** How the requested tests and mammography are named in prose: the note is read for its direction about them. */
export const MARKERS_AND_SCANS = ['tumor marker', 'tumor markers', 'tumour markers', 'CA 27.29', 'CA 27-29', 'CA 15-3', 'CEA', 'PET', 'PET/CT', 'PET-CT', 'PET scan', 'PET scans', 'CT', 'CT scan', 'CT scans', 'bone scan', 'bone scans', 'surveillance imaging', 'routine imaging', 'staging scans', 'scans'];
export const MAMMOGRAPHY = ['mammogram', 'mammograms', 'mammography', 'mammographic surveillance', 'diagnostic mammogram', 'screening mammogram'];
