// Avoids the beta-lactam with a Z-pak: macrolides are not recommended for sinusitis (pneumococcal resistance).
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'azithromycin 500 mg then 250 mg daily';
export const catches = ['guideline_antibiotic_ordered'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search('AllergyIntolerance', { patient });
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '18631', display: 'azithromycin' }] },
    dosageInstruction: [{ text: '500 mg on day 1 then 250 mg daily days 2-5', doseAndRate: [{ doseQuantity: { value: 250, unit: 'mg' } }] }] });
  await submit('Amoxicillin allergy: avoided amoxicillin; azithromycin Z-pak ordered.');
}
