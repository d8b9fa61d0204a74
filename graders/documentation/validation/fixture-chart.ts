// A small hand-built chart for patient `p1` whose values make the tempting wrong answers differ from the right ones:
// a glucose stored in mmol/L, an entered-in-error potassium, a lab coded only with a local flowsheet code, a CKD
// diagnosis coded only in ICD-10-CM, a stopped spironolactone, a free-text furosemide, a right-sided cancer.
// Used by the documentation verifier's tests and by ./build.ts, which writes the validation set from it.
import type { Resource } from '@medplum/fhirtypes';

const LOINC = 'http://loinc.org';
const SNOMED = 'http://snomed.info/sct';
const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const ICD = 'http://hl7.org/fhir/sid/icd-10-cm';
const UCUM = 'http://unitsofmeasure.org';
const FLOW = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const subject = { reference: 'Patient/p1' };

const obs = (id: string, system: string, code: string, text: string, value: number, unit: string, when: string, extra: Record<string, unknown> = {}): Resource => ({
  resourceType: 'Observation', id, status: 'final', category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }],
  code: { coding: [{ system, code }], text }, subject, effectiveDateTime: when,
  valueQuantity: { value, unit, system: UCUM, code: unit }, ...extra,
} as Resource);
const high = { interpretation: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation', code: 'H' }] }] };
const low = { interpretation: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation', code: 'L' }] }] };

const med = (id: string, status: string, code: string | undefined, text: string, dose: number, unit: string, perDay: number, authoredOn: string, end?: string): Resource => ({
  resourceType: 'MedicationRequest', id, status, intent: 'order', subject, authoredOn,
  medicationCodeableConcept: code ? { coding: [{ system: RXNORM, code }], text } : { text },
  dosageInstruction: [{
    text: `${dose} ${unit} ${perDay === 2 ? 'twice daily' : 'once daily'}`,
    timing: { repeat: { frequency: perDay, period: 1, periodUnit: 'd', boundsPeriod: { start: authoredOn.slice(0, 10), ...(end ? { end } : {}) } } },
    doseAndRate: [{ doseQuantity: { value: dose, unit, system: UCUM, code: unit } }],
  }],
} as Resource);

export const NOTE_DATE = '2026-03-03T10:00:00Z';

export const fixtureChart: Resource[] = [
  { resourceType: 'Patient', id: 'p1', gender: 'female', birthDate: '1955-04-02' },
  obs('k-new', LOINC, '2823-3', 'Potassium', 5.9, 'mmol/L', '2026-03-02T08:30:00-06:00', high),
  obs('k-old', LOINC, '2823-3', 'Potassium', 4.8, 'mmol/L', '2026-01-10T09:00:00-06:00'),
  obs('k-error', LOINC, '2823-3', 'Potassium', 7.1, 'mmol/L', '2026-03-01T09:00:00-06:00', { status: 'entered-in-error' }),
  obs('cr-new', LOINC, '2160-0', 'Creatinine', 2.1, 'mg/dL', '2026-03-02T08:30:00-06:00', high),
  obs('cr-old', LOINC, '2160-0', 'Creatinine', 1.6, 'mg/dL', '2025-06-01T09:00:00-05:00', high),
  obs('egfr-new', LOINC, '33914-3', 'eGFR', 28, 'mL/min/{1.73_m2}', '2026-03-02T08:30:00-06:00', low),
  obs('egfr-old', LOINC, '33914-3', 'eGFR', 45, 'mL/min/{1.73_m2}', '2025-03-01T09:00:00-06:00', low),
  obs('a1c', LOINC, '4548-4', 'Hemoglobin A1c', 8.1, '%', '2026-02-15T09:00:00-06:00', high),
  obs('glu', LOINC, '2345-7', 'Glucose', 7.8, 'mmol/L', '2026-03-02T08:30:00-06:00', high),
  obs('hgb', FLOW, 'HGB', 'Hemoglobin', 9.8, 'g/dL', '2026-03-02T08:30:00-06:00', low),
  {
    resourceType: 'Observation', id: 'bp', status: 'final', code: { coding: [{ system: LOINC, code: '85354-9' }], text: 'Blood pressure' }, subject,
    effectiveDateTime: '2026-03-02T08:10:00-06:00',
    component: [
      { code: { coding: [{ system: LOINC, code: '8480-6' }] }, valueQuantity: { value: 138, unit: 'mm[Hg]', system: UCUM, code: 'mm[Hg]' } },
      { code: { coding: [{ system: LOINC, code: '8462-4' }] }, valueQuantity: { value: 89, unit: 'mm[Hg]', system: UCUM, code: 'mm[Hg]' } },
    ],
  } as Resource,
  {
    resourceType: 'DiagnosticReport', id: 'bmp-report', status: 'final', code: { coding: [{ system: LOINC, code: '51990-0' }] }, subject,
    effectiveDateTime: '2026-03-02T08:30:00-06:00', result: [{ reference: 'Observation/k-new' }, { reference: 'Observation/cr-new' }, { reference: 'Observation/egfr-new' }],
  } as Resource,
  {
    resourceType: 'Condition', id: 'dm', clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
    code: { coding: [{ system: ICD, code: 'E11.9' }, { system: SNOMED, code: '44054006' }], text: 'Type 2 diabetes mellitus' }, subject, onsetDateTime: '2015-05-01',
  } as Resource,
  {
    resourceType: 'Condition', id: 'ckd', clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
    code: { coding: [{ system: ICD, code: 'N18.4' }], text: 'Chronic kidney disease, stage 4 (severe)' }, subject, onsetDateTime: '2025-09-01',
  } as Resource,
  {
    resourceType: 'Condition', id: 'breast-ca', clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
    code: { coding: [{ system: SNOMED, code: '254837009' }], text: 'Malignant neoplasm of right female breast' }, subject, onsetDateTime: '2024-02-01',
  } as Resource,
  med('metformin', 'active', '6809', 'metformin 1000 mg tablet', 1000, 'mg', 2, '2020-01-15'),
  med('lisinopril', 'active', '314077', 'lisinopril 20 MG Oral Tablet', 20, 'mg', 1, '2019-06-01'),
  med('spironolactone', 'stopped', '9997', 'spironolactone 25 mg tablet', 25, 'mg', 1, '2024-01-01', '2026-03-02'),
  med('apixaban', 'active', '1364445', 'apixaban 5 MG Oral Tablet', 5, 'mg', 2, '2023-04-01'),
  med('furosemide', 'active', undefined, 'furosemide 40 mg - see sig', 40, 'mg', 1, '2025-10-01'),
  {
    resourceType: 'AllergyIntolerance', id: 'amox', clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }] },
    code: { coding: [{ system: RXNORM, code: '723', display: 'amoxicillin' }] }, patient: subject,
  } as Resource,
  {
    resourceType: 'ServiceRequest', id: 'bmp-order', status: 'active', intent: 'order', subject,
    code: { coding: [{ system: LOINC, code: '51990-0' }] }, authoredOn: '2026-03-03',
  } as Resource,
  {
    resourceType: 'ServiceRequest', id: 'neph-referral', status: 'active', intent: 'order', subject,
    category: [{ coding: [{ system: SNOMED, code: '386053000' }] }], code: { coding: [{ system: SNOMED, code: '3457005' }], text: 'Referral' },
    performerType: { coding: [{ system: SNOMED, code: '394589003' }] }, authoredOn: '2026-03-03',
  } as Resource,
];
