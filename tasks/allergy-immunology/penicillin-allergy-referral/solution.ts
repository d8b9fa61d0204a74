// Reference solution: read the allergy list, the medication history (prior antibiotics), problems, encounters and
// notes; score PEN-FAST (Trubiano 2020) from the recorded reaction; refer a low-risk history to Allergy & Immunology
// for a direct oral amoxicillin challenge (AAAAI/ACAAI 2022). No antibiotic order; the allergy entry stays until tested.
import type { ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { facts } from './grader.ts';

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  await fhir.search('AllergyIntolerance', { patient });
  await fhir.search('AllergyIntolerance', { patient, code: 'http://www.nlm.nih.gov/research/umls/rxnorm|723' });
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('Condition', { patient, _sort: '-recorded-date', _count: 50 });
  await fhir.search('MedicationRequest', { patient, status: 'active' });
  await fhir.search('MedicationRequest', { patient, _sort: '-authoredon', _count: 100 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 20 });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 10 });
  await fhir.search('Observation', { patient, category: 'vital-signs', _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, category: 'laboratory', _sort: '-date', _count: 20 });
  await fhir.search('Immunization', { patient });
  await fhir.search('ServiceRequest', { patient, category: 'http://snomed.info/sct|386053000' });
  await fhir.search('Appointment', { patient });
  await fhir.search('CarePlan', { patient });

  const f = (await facts(fhir, patient, now))!;
  const years = Math.floor(f.years);
  const onset = (f.allergy.onsetDateTime ?? f.allergy.recordedDate ?? '').slice(0, 10);
  await fhir.create<ServiceRequest>({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'routine',
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '386053000', display: 'Patient referral' }] }],
    code: { coding: [{ system: 'http://snomed.info/sct', code: '3457005', display: 'Patient referral' }], text: 'Referral to Allergy and Immunology: penicillin allergy evaluation' },
    performerType: { coding: [{ system: 'http://snomed.info/sct', code: '408439002', display: 'Allergy - specialty' }], text: 'Allergy and Immunology' },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
    reasonReference: [{ reference: `AllergyIntolerance/${f.allergy.id}` }],
    reasonCode: [{ text: `Penicillin allergy evaluation/delabeling: amoxicillin ${f.reaction} on ${onset} (${years} years ago), criticality low; PEN-FAST ${f.penFast} (low risk). Please consider a direct oral amoxicillin challenge.` }],
  });
  await finish(JSON.stringify({
    reaction: f.reaction, yearsSinceReaction: years, penFast: f.penFast, lowRisk: true,
    recommendation: 'Low-risk history (PEN-FAST < 3): referred to Allergy & Immunology for a supervised direct oral amoxicillin challenge; keep the allergy label until then and do not prescribe amoxicillin outside the clinic.',
  }));
}
