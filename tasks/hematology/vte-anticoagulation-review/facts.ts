// Clinical facts of the VTE anticoagulation review, shared by the grader and the reference solution as data only:
// which results and problems count, which drugs are anticoagulants, and what in the chart decides the length of
// therapy (CHEST 2021). Each side reads the chart and decides with its own code.

export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const ICD10 = 'http://hl7.org/fhir/sid/icd-10-cm';
export const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

export const DVT = [{ system: SNOMED, codes: ['128053003'] }];
export const HEMOGLOBIN = [{ system: LOINC, codes: ['718-7'] }, { system: FLOWSHEET, codes: ['HGB'] }];
export const PLATELETS = [{ system: LOINC, codes: ['777-3', '26515-7'] }, { system: FLOWSHEET, codes: ['PLT'] }];
export const CREATININE = [{ system: LOINC, codes: ['2160-0', '38483-4'] }, { system: FLOWSHEET, codes: ['CREAT'] }];

/** Anticoagulant classes of graders/lib/drug-classes.ts (DOACs, warfarin, heparins, fondaparinux; any code, brand or text). */
export const ANTICOAGULANT_CLASSES = ['anticoagulant', 'parenteral-anticoagulant'];

/** A DVT this many days after major surgery is provoked by a major transient risk factor (CHEST 2021). */
export const PROVOKING_WINDOW_DAYS = 90;
/** Major surgery (SNOMED CT procedures): total knee / hip replacement, hip fracture repair; or these words. */
export const MAJOR_SURGERY = { codes: [{ system: SNOMED, codes: ['609588000', '52734007', '179344006', '265157000'] }], words: ['arthroplasty', 'knee replacement', 'hip replacement', 'hip fracture repair'] };
/** Active cancer: a persistent risk factor, extended-phase anticoagulation (SNOMED CT malignant neoplasms; ICD-10-CM C00-C96). */
export const CANCER = { codes: [{ system: SNOMED, codes: ['363346000', '363406005', '254837009', '363418001', '93761005', '372064008', '363358000'] }], icd10Prefix: /^C(?:[0-8]\d|9[0-6])/ };

/** How anticoagulation is named in prose: the note is read for its direction about these. */
export const ANTICOAGULATION_NAMES = [
  'anticoagulation', 'anticoagulant', 'anticoagulants', 'anticoagulated', 'apixaban', 'eliquis', 'rivaroxaban', 'xarelto', 'edoxaban', 'savaysa',
  'dabigatran', 'pradaxa', 'warfarin', 'coumadin', 'enoxaparin', 'lovenox', 'DOAC', 'extended-phase therapy', 'extended-phase anticoagulation',
];
