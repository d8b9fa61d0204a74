// A generated stand-in population for search benchmarks (until the seed generator lands): patients with
// observations (labs, vitals), conditions, medication requests and encounters, written into the base layer.
import type { Resource } from '@medplum/fhirtypes';

const LABS = [['2823-3', 'Potassium', 'mmol/L', 4.2], ['2345-7', 'Glucose', 'mg/dL', 105], ['4548-4', 'Hemoglobin A1c', '%', 6.1], ['2601-3', 'Magnesium', 'mg/dL', 2.0]] as const;
const CONDITIONS = [['44054006', 'Diabetes mellitus type 2'], ['38341003', 'Hypertension'], ['195967001', 'Asthma'], ['13645005', 'COPD']] as const;
const MEDS = [['860975', 'Metformin 500 MG'], ['197361', 'Amlodipine 5 MG'], ['314076', 'Lisinopril 10 MG']] as const;
const FAMILY = ['Smith', 'Johnson', 'Müller', 'García', 'Nguyen', 'Okafor', 'Kowalski', 'Rossi', 'Tanaka', 'Dubois'];
const GIVEN = ['Anna', 'John', 'Maria', 'Wei', 'Fatima', 'Lukas', 'Sofia', 'Omar', 'Chloé', 'Ivan'];

function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 4294967296);
}

/** Yields resources patient by patient (about 2 + obsPerPatient + 5 resources each). */
export function* population(patients: number, obsPerPatient = 30, seed = 1): Generator<Resource & { id: string }> {
  const r = rng(seed);
  yield { resourceType: 'Organization', id: 'org-1', name: 'General Hospital' } as Resource & { id: string };
  yield { resourceType: 'Practitioner', id: 'pr-1', name: [{ family: 'House', given: ['Greg'] }] } as Resource & { id: string };
  for (let p = 0; p < patients; p++) {
    const pid = `pat-${p}`;
    const ref = { reference: `Patient/${pid}` };
    yield {
      resourceType: 'Patient', id: pid,
      identifier: [{ system: 'urn:oid:ehr-gym:mrn', value: `MRN${100000 + p}` }],
      name: [{ family: FAMILY[p % 10], given: [GIVEN[Math.floor(p / 10) % 10]] }],
      gender: p % 2 ? 'female' : 'male', birthDate: `19${40 + (p % 60)}-0${1 + (p % 9)}-1${p % 10}`,
      managingOrganization: { reference: 'Organization/org-1' },
      address: [{ city: 'Springfield', state: 'IL', postalCode: '62701', line: [`${p} Main St`] }],
    } as Resource & { id: string };
    const eid = `enc-${p}`;
    yield { resourceType: 'Encounter', id: eid, status: 'finished', class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB' }, subject: ref, period: { start: '2023-01-05T09:00:00Z', end: '2023-01-05T10:00:00Z' }, participant: [{ individual: { reference: 'Practitioner/pr-1' } }] } as Resource & { id: string };
    for (let i = 0; i < obsPerPatient; i++) {
      const [code, display, unit, mean] = LABS[i % LABS.length];
      const day = 1 + (i % 28);
      yield {
        resourceType: 'Observation', id: `obs-${p}-${i}`, status: 'final',
        category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }],
        code: { coding: [{ system: 'http://loinc.org', code, display }], text: display },
        subject: ref, encounter: { reference: `Encounter/${eid}` },
        effectiveDateTime: `2023-${String(1 + (i % 12)).padStart(2, '0')}-${String(day).padStart(2, '0')}T08:${String(i % 60).padStart(2, '0')}:00Z`,
        valueQuantity: { value: Math.round(mean * (0.8 + 0.4 * r()) * 10) / 10, unit, system: 'http://unitsofmeasure.org', code: unit },
      } as Resource & { id: string };
    }
    for (let c = 0; c < 2; c++) {
      const [code, display] = CONDITIONS[(p + c) % CONDITIONS.length];
      yield {
        resourceType: 'Condition', id: `cond-${p}-${c}`, subject: ref,
        clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
        code: { coding: [{ system: 'http://snomed.info/sct', code, display }] }, onsetDateTime: '2015-06-01',
      } as Resource & { id: string };
    }
    for (let m = 0; m < 2; m++) {
      const [code, display] = MEDS[(p + m) % MEDS.length];
      yield {
        resourceType: 'MedicationRequest', id: `mr-${p}-${m}`, status: m === 0 ? 'active' : 'stopped', intent: 'order', subject: ref,
        medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code, display }] },
        authoredOn: '2023-02-01', requester: { reference: 'Practitioner/pr-1' },
      } as Resource & { id: string };
    }
  }
}
