// Lowers potassium with a loop diuretic at K >= 6.0 (KDIGO 2024 3.10), keeps the ACE inhibitor, stops any potassium
// supplement, and orders a comprehensive metabolic panel by CPT 80053 with text; the answer gives K as a string field.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'furosemide 20 mg at K >= 6.0, keeps lisinopril, CMP by CPT 80053, K as "6.1 mmol/L" string';

const K_CODES = 'http://loinc.org|2823-3,http://loinc.org|6298-4,http://ehr-gym.example/fhir/CodeSystem/flowsheet|K';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const ks = (await http.search<Observation>('Observation', { patient, code: K_CODES }))
    .filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
    .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''));
  const k = ks[0]!.valueQuantity!.value!;
  if (k <= 5.0) {
    await submit(JSON.stringify({ k: `${k} mmol/L`, plan: 'normal now; lisinopril continued' }));
    return;
  }
  for (const order of meds.filter((o) => /potassium chloride|amiloride|triamterene/i.test(o.medicationCodeableConcept?.text ?? ''))) {
    await http.update({ ...order, id: order.id!, status: 'stopped', statusReason: { text: 'hyperkalaemia' } });
  }
  if (k >= 6.0) {
    await http.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '4603', display: 'furosemide' }], text: 'furosemide 20 mg tablet' },
      dosageInstruction: [{ text: '20 mg by mouth once daily', doseAndRate: [{ doseQuantity: { value: 20, unit: 'mg' } }] }],
    });
  }
  await http.create({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
    code: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '80053' }], text: 'Comprehensive metabolic panel' },
  });
  await submit(JSON.stringify({ k: `${k} mmol/L`, plan: k >= 6.0 ? 'furosemide 20 mg daily added, lisinopril continued, CMP now' : 'lisinopril continued, CMP now' }));
}
