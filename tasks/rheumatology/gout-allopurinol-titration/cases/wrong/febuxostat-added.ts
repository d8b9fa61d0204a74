// Adds febuxostat on top of the allopurinol instead of titrating (two xanthine oxidase inhibitors), whatever the urate.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Observation } from '@medplum/fhirtypes';

export const description = 'adds febuxostat 40 mg beside allopurinol';
export const catches = ['single_urate_lowering_order', 'urate_lowering_plan'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search('MedicationRequest', { patient, status: 'active' });
  const u = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|3084-1' }))
    .filter((o) => o.valueQuantity?.value !== undefined).sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''))[0]!.valueQuantity!.value!;
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '73689', display: 'febuxostat' }] }, dosageInstruction: [{ text: '40 mg by mouth daily', doseAndRate: [{ doseQuantity: { value: 40, unit: 'mg' } }] }] });
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, code: { coding: [{ system: 'http://loinc.org', code: '3084-1' }] } });
  await submit(`Urate ${u} mg/dL. Added febuxostat 40 mg daily to the allopurinol; recheck urate.`);
}
