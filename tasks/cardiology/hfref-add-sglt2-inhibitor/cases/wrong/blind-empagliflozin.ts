// Never opens the chart: orders empagliflozin 10 mg and reports an SGLT2 inhibitor as the missing pillar.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'reads nothing; orders empagliflozin 10 mg and claims SGLT2i was missing';
export const catches = ['reviewed_gdmt_orders', 'reviewed_safety_labs'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1545653', display: 'empagliflozin' }] },
    dosageInstruction: [{ text: '10 mg by mouth once daily', doseAndRate: [{ doseQuantity: { value: 10, unit: 'mg' } }] }] });
  await submit(JSON.stringify({ missing: ['SGLT2 inhibitor'], ordered: 'empagliflozin 10 mg daily', egfr: 45, potassium: 4.5 }));
}
