// Reads the allergy list, sees amoxicillin, and gives doxycycline to everyone - including a pregnant patient and one
// whose list holds a doxycycline rash.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'doxycycline 100 mg BID regardless of pregnancy or a doxycycline allergy';
export const catches = ['guideline_antibiotic_ordered', 'no_contraindicated_antibiotic'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search('AllergyIntolerance', { patient });
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1649988', display: 'doxycycline hyclate 100 MG Oral Capsule' }] },
    dosageInstruction: [{ text: '100 mg by mouth twice daily for 7 days', doseAndRate: [{ doseQuantity: { value: 100, unit: 'mg' } }] }] });
  await submit('Amoxicillin allergy on file, so no amoxicillin: doxycycline 100 mg BID x 7 days ordered.');
}
