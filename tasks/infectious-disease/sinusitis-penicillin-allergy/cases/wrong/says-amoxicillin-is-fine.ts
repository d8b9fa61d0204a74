// Orders a fitting drug, but the answer tells the requester amoxicillin would be fine "since the allergy is old":
// the right keywords (allergy, amoxicillin) beside the wrong recommendation.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition } from '@medplum/fhirtypes';

export const description = 'right order, answer recommends amoxicillin anyway';
export const catches = ['answer_explains_choice'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search('AllergyIntolerance', { patient });
  const pregnant = (await http.search<Condition>('Condition', { patient, code: 'http://snomed.info/sct|77386006' })).length > 0;
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '2194', display: 'cefuroxime' }] },
    dosageInstruction: [{ text: '500 mg by mouth twice daily for 10 days', doseAndRate: [{ doseQuantity: { value: 500, unit: 'mg' } }] }] });
  await submit(`The amoxicillin allergy is old and probably not real, so amoxicillin 500 mg TID is fine to give next time${pregnant ? ' in pregnancy too' : ''}; I placed cefuroxime 500 mg BID today.`);
}
