// Covers every base: doxycycline and levofloxacin together.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'doxycycline plus levofloxacin';
export const catches = ['one_regimen'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search('AllergyIntolerance', { patient });
  for (const [code, display, mg, sig] of [['3640', 'doxycycline', 100, 'twice daily'], ['82122', 'levofloxacin', 500, 'once daily']] as const) {
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code, display }] },
      dosageInstruction: [{ text: `${mg} mg by mouth ${sig} for 7 days`, doseAndRate: [{ doseQuantity: { value: mg, unit: 'mg' } }] }] });
  }
  await submit('Amoxicillin allergy: no amoxicillin. Ordered doxycycline and levofloxacin.');
}
