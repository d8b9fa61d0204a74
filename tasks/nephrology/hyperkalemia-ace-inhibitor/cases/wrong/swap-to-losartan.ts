// Replaces the ACE inhibitor with an ARB: the potassium load stays (and on a normal chart it changes a drug that
// needed no change).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'swaps lisinopril for losartan 50 mg';
export const catches = ['no_potassium_raising_orders'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const ks = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2823-3,http://ehr-gym.example/fhir/CodeSystem/flowsheet|K' }))
    .filter((o) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error')
    .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''));
  const k = ks[0]!.valueQuantity!.value!;
  for (const order of meds.filter((o) => /lisinopril|potassium chloride/i.test(o.medicationCodeableConcept?.text ?? ''))) {
    await http.update({ ...order, id: order.id!, status: 'stopped', statusReason: { text: `K ${k}` } });
  }
  await http.create<MedicationRequest>({
    resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '979492', display: 'losartan potassium 50 MG Oral Tablet' }], text: 'losartan 50 mg' },
    dosageInstruction: [{ text: '50 mg by mouth daily', doseAndRate: [{ doseQuantity: { value: 50, unit: 'mg' } }] }],
  });
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, code: { coding: [{ system: 'http://loinc.org', code: '51990-0' }] } });
  await submit(`K ${k} mmol/L: switched lisinopril to losartan 50 mg, BMP ordered.`);
}
