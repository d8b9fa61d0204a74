// Small chart builders for the task note tests: a handful of resources for patient `p1`, shaped like the seed's.
import type { Resource } from '@medplum/fhirtypes';

export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const UCUM = 'http://unitsofmeasure.org';
export const subject = { reference: 'Patient/p1' };

export const lab = (id: string, code: string, text: string, value: number, unit: string, when: string): Resource & { resourceType: 'Observation' } => ({
  resourceType: 'Observation', id, status: 'final', category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }],
  code: { coding: [{ system: LOINC, code }], text }, subject, effectiveDateTime: when, valueQuantity: { value, unit, system: UCUM, code: unit },
});

export const bp = (id: string, systolic: number, diastolic: number, when: string): Resource & { resourceType: 'Observation' } => ({
  resourceType: 'Observation', id, status: 'final', category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] }],
  code: { coding: [{ system: LOINC, code: '85354-9' }], text: 'Blood pressure' }, subject, effectiveDateTime: when,
  component: [
    { code: { coding: [{ system: LOINC, code: '8480-6' }] }, valueQuantity: { value: systolic, unit: 'mm[Hg]', system: UCUM, code: 'mm[Hg]' } },
    { code: { coding: [{ system: LOINC, code: '8462-4' }] }, valueQuantity: { value: diastolic, unit: 'mm[Hg]', system: UCUM, code: 'mm[Hg]' } },
  ],
});

export const condition = (id: string, code: string, text: string, status = 'active'): Resource & { resourceType: 'Condition' } => ({
  resourceType: 'Condition', id, subject, code: { coding: [{ system: SNOMED, code }], text },
  clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: status }] }, onsetDateTime: '2019-03-01',
});

export const med = (id: string, status: 'active' | 'stopped' | 'completed' | 'cancelled', code: string, text: string, dose: number, unit: string, perDay: number, authoredOn: string, end?: string): Resource & { resourceType: 'MedicationRequest' } => ({
  resourceType: 'MedicationRequest', id, status, intent: 'order', subject, authoredOn,
  medicationCodeableConcept: { coding: [{ system: RXNORM, code }], text },
  dosageInstruction: [{
    text: `${dose} ${unit} ${perDay === 2 ? 'twice daily' : perDay === 1 / 7 ? 'once weekly' : 'once daily'}`,
    timing: { repeat: perDay === 1 / 7 ? { frequency: 1, period: 1, periodUnit: 'wk' } : { frequency: perDay, period: 1, periodUnit: 'd', ...(end ? { boundsPeriod: { start: authoredOn.slice(0, 10), end } } : {}) } },
    doseAndRate: [{ doseQuantity: { value: dose, unit, system: UCUM, code: unit } }],
  }],
});

export const serviceRequest = (id: string, system: string, code: string, text: string, category: string): Resource => ({
  resourceType: 'ServiceRequest', id, status: 'active', intent: 'order', subject, code: { coding: [{ system, code }], text },
  category: [{ coding: [{ system: SNOMED, code: category }] }], authoredOn: '2025-07-01T16:00:00Z',
});
