// The HL7 (terminology.hl7.org and FHIR core) code systems the generator emits, with their official displays.
import type { CodeTable } from './types.ts';

const T = 'http://terminology.hl7.org/CodeSystem/';

export const HL7: Record<string, CodeTable> = {
  observationCategory: { system: T + 'observation-category', title: 'Observation Category', concepts: {
    'vital-signs': 'Vital Signs', laboratory: 'Laboratory', 'social-history': 'Social History', survey: 'Survey', exam: 'Exam',
  } },
  interpretation: { system: T + 'v3-ObservationInterpretation', title: 'ObservationInterpretation', concepts: {
    H: 'High', L: 'Low', HH: 'Critical high', LL: 'Critical low', N: 'Normal',
  } },
  conditionClinical: { system: T + 'condition-clinical', title: 'Condition Clinical Status', concepts: {
    active: 'Active', resolved: 'Resolved', inactive: 'Inactive', remission: 'Remission',
  } },
  conditionVerification: { system: T + 'condition-ver-status', title: 'Condition Verification Status', concepts: {
    confirmed: 'Confirmed', 'entered-in-error': 'Entered in Error', provisional: 'Provisional',
  } },
  conditionCategory: { system: T + 'condition-category', title: 'Condition Category', concepts: {
    'problem-list-item': 'Problem List Item', 'encounter-diagnosis': 'Encounter Diagnosis',
  } },
  actCode: { system: T + 'v3-ActCode', title: 'ActCode', concepts: {
    AMB: 'ambulatory', EMER: 'emergency', IMP: 'inpatient encounter', VR: 'virtual',
  } },
  participationType: { system: T + 'v3-ParticipationType', title: 'ParticipationType', concepts: {
    ATND: 'attender', PPRF: 'primary performer',
  } },
  identifierType: { system: T + 'v2-0203', title: 'Identifier Type', concepts: { MR: 'Medical record number', NPI: 'National provider identifier' } },
  diagnosticService: { system: T + 'v2-0074', title: 'Diagnostic Service Section Id', concepts: {
    LAB: 'Laboratory', RAD: 'Radiology', CH: 'Chemistry', HM: 'Hematology', SP: 'Surgical Pathology',
  } },
  allergyClinical: { system: T + 'allergyintolerance-clinical', title: 'AllergyIntolerance Clinical Status', concepts: {
    active: 'Active', inactive: 'Inactive', resolved: 'Resolved',
  } },
  allergyVerification: { system: T + 'allergyintolerance-verification', title: 'AllergyIntolerance Verification Status', concepts: {
    confirmed: 'Confirmed', unconfirmed: 'Unconfirmed',
  } },
  medicationRequestCategory: { system: T + 'medicationrequest-category', title: 'MedicationRequest Category', concepts: {
    outpatient: 'Outpatient', inpatient: 'Inpatient', community: 'Community',
  } },
  medicationRequestStatusReason: { system: T + 'medicationrequest-status-reason', title: 'MedicationRequest Status Reason', concepts: {
    altchoice: 'Try another treatment first', drughigh: 'Medication level too high', labint: 'Lab interference issues',
    salg: 'Allergy', sintol: 'Suspected intolerance', sdupther: 'Duplicate therapy', surg: 'Surgery',
  } },
  documentCategory: { system: 'http://hl7.org/fhir/us/core/CodeSystem/us-core-documentreference-category', title: 'US Core DocumentReference Category', concepts: {
    'clinical-note': 'Clinical Note',
  } },
  carePlanCategory: { system: 'http://hl7.org/fhir/us/core/CodeSystem/careplan-category', title: 'US Core CarePlan Category', concepts: {
    'assess-plan': 'Assessment and Plan of Treatment',
  } },
  language: { system: 'urn:ietf:bcp:47', title: 'Tags for the Identification of Languages', concepts: {
    en: 'English', es: 'Spanish', zh: 'Chinese', vi: 'Vietnamese',
  } },
  marital: { system: T + 'v3-MaritalStatus', title: 'MaritalStatus', concepts: {
    M: 'Married', S: 'Never Married', D: 'Divorced', W: 'Widowed',
  } },
  timingAbbreviation: { system: T + 'v3-GTSAbbreviation', title: 'GTSAbbreviation', concepts: {
    QD: 'QD', BID: 'BID', TID: 'TID', QOD: 'QOD', WK: 'weekly', PRN: 'PRN',
  } },
  appointmentReason: { system: T + 'v2-0276', title: 'Appointment reason codes', concepts: {
    ROUTINE: 'Routine appointment - default if not valued', FOLLOWUP: 'A follow up visit from a previous appointment', CHECKUP: 'A routine check-up, such as an annual physical',
  } },
  dataAbsentReason: { system: T + 'data-absent-reason', title: 'DataAbsentReason', concepts: { error: 'Error' } },
  roleCode: { system: T + 'practitioner-role', title: 'Practitioner role', concepts: { doctor: 'Doctor' } },
  orgType: { system: T + 'organization-type', title: 'Organization type', concepts: { prov: 'Healthcare Provider' } },
};
