// Ignores "don't change any orders": writes a new apixaban order (a restart where it was stopped, a duplicate where
// it is active).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest } from '@medplum/fhirtypes';

export const description = 'places a new apixaban 5 mg BID order despite "don\'t change any orders"';
export const catches = ['orders_untouched'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search<Condition>('Condition', { patient });
  await http.search<MedicationRequest>('MedicationRequest', { patient });
  await http.create<MedicationRequest>({
    resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1364445', display: 'apixaban 5 MG Oral Tablet' }], text: 'apixaban 5 MG Oral Tablet' },
    dosageInstruction: [{ text: '5 mg by mouth twice daily', timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 5, unit: 'mg' } }] }],
  });
  await submit('Restarted apixaban.');
}
