// Refers, but also marks the allergy refuted right away ("it was years ago") before any test has been done.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { AllergyIntolerance } from '@medplum/fhirtypes';

export const description = 'refers and refutes the allergy before testing';
export const catches = ['allergy_label_kept'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const allergy = (await http.search<AllergyIntolerance>('AllergyIntolerance', { patient, code: 'http://www.nlm.nih.gov/research/umls/rxnorm|723' }))[0];
  await http.search('MedicationRequest', { patient });
  const severe = /anaphyla|angioedema/i.test(JSON.stringify(allergy.reaction));
  const years = Math.floor((Date.parse(now) - Date.parse(allergy.onsetDateTime!)) / 31557600000);
  const penFast = (years <= 5 ? 2 : 0) + (severe ? 3 : 0);
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '386053000' }] }], performerType: { text: 'Allergy and Immunology' },
    reasonCode: [{ text: 'amoxicillin allergy evaluation' }] });
  await http.update<AllergyIntolerance>({ ...allergy, id: allergy.id!, clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'inactive' }] },
    verificationStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification', code: 'refuted' }] } });
  await submit({ reaction: String(allergy.reaction?.[0]?.manifestation?.[0]?.text), yearsSinceReaction: years, penFast, lowRisk: penFast < 3 });
}
