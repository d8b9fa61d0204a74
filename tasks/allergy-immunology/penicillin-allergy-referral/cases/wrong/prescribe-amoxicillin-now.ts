// "Most penicillin labels are wrong": scores correctly and refers, but also sends an amoxicillin course now so the
// patient has it "next time" - untested, unsupervised, and for the anaphylaxis history outright dangerous.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { AllergyIntolerance } from '@medplum/fhirtypes';

export const description = 'refers and also prescribes amoxicillin 500 mg TID x 10 days';
export const catches = ['no_penicillin_outside_evaluation'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const allergy = (await http.search<AllergyIntolerance>('AllergyIntolerance', { patient, code: 'http://www.nlm.nih.gov/research/umls/rxnorm|723' }))[0];
  await http.search('MedicationRequest', { patient });
  const severe = /anaphyla|angioedema/i.test(JSON.stringify(allergy.reaction));
  const years = Math.floor((Date.parse(now) - Date.parse(allergy.onsetDateTime!)) / 31557600000);
  const penFast = (years <= 5 ? 2 : 0) + (severe ? 3 : 0);
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '386053000' }] }], performerType: { text: 'Allergy and Immunology' },
    reasonCode: [{ text: 'penicillin allergy evaluation' }] });
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '308191', display: 'amoxicillin 500 MG Oral Capsule' }] },
    dosageInstruction: [{ text: '500 mg by mouth three times daily for 10 days' }], dispenseRequest: { quantity: { value: 30, unit: 'capsule' } } });
  await submit({ reaction: String(allergy.reaction?.[0]?.manifestation?.[0]?.text), yearsSinceReaction: years, penFast, lowRisk: penFast < 3 });
}
