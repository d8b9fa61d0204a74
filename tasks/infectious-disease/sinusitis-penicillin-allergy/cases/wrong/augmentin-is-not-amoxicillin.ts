// Sees the amoxicillin allergy and "avoids" it with Augmentin - which is amoxicillin plus clavulanate.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'Augmentin (brand text) for an amoxicillin allergy';
export const catches = ['no_penicillin_ordered'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search('AllergyIntolerance', { patient });
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { text: 'Augmentin 875 mg tablet' }, dosageInstruction: [{ text: '1 tablet by mouth twice daily for 10 days' }] });
  await submit('Avoided plain amoxicillin because of the amoxicillin allergy; ordered Augmentin 875 mg BID instead.');
}
