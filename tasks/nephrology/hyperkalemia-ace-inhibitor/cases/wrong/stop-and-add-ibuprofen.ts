// Stops lisinopril and rechecks potassium correctly, then adds ibuprofen for pain: an NSAID raises potassium and
// harms the kidney (KDIGO 2024 3.10 / 3.15).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'stops lisinopril, rechecks K, adds ibuprofen 400 mg TID';
export const catches = ['no_potassium_raising_orders'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const ks = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2823-3,http://ehr-gym.example/fhir/CodeSystem/flowsheet|K' }))
    .filter((o) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error')
    .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''));
  const k = ks[0]!.valueQuantity!.value!;
  if (k >= 5.5) {
    for (const order of meds.filter((o) => /lisinopril|potassium chloride/i.test(o.medicationCodeableConcept?.text ?? ''))) {
      await http.update({ ...order, id: order.id!, status: 'stopped', statusReason: { text: `hyperkalemia K ${k}` } });
    }
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, code: { coding: [{ system: 'http://loinc.org', code: '2823-3' }] } });
  }
  await http.create<MedicationRequest>({
    resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '5640', display: 'ibuprofen' }], text: 'ibuprofen 400 mg tablet' },
    dosageInstruction: [{ text: '400 mg by mouth three times daily as needed for pain', doseAndRate: [{ doseQuantity: { value: 400, unit: 'mg' } }] }],
  });
  await submit(`K ${k} mmol/L; ${k >= 5.5 ? 'lisinopril stopped, K recheck ordered' : 'lisinopril continued'}; ibuprofen for pain.`);
}
