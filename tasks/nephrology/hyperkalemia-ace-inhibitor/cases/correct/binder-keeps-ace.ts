// Keeps RAAS blockade (KDIGO 2024: lower potassium rather than stop the ACE inhibitor): at K >= 6.0 adds patiromer
// written by brand and text only, stops any potassium supplement, and orders a BMP (LOINC 24321-2) tomorrow; at
// 5.5-5.9 the recheck (and stopping a supplement) is enough. JSON answer.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'keeps lisinopril, patiromer (Veltassa, text only) at K >= 6.0, BMP 24321-2, JSON answer';

const K_CODES = 'http://loinc.org|2823-3,http://loinc.org|6298-4,http://ehr-gym.example/fhir/CodeSystem/flowsheet|K';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const ks = (await http.search<Observation>('Observation', { patient, code: K_CODES }))
    .filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
    .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''));
  const k = ks[0]!.valueQuantity!.value!;
  if (k <= 5.0) {
    await submit(JSON.stringify({ potassium: k, decision: 'continue lisinopril unchanged' }));
    return;
  }
  const plan: string[] = ['continue lisinopril'];
  for (const order of meds.filter((o) => /potassium chloride|klor-con|amiloride|triamterene/i.test(o.medicationCodeableConcept?.text ?? ''))) {
    await http.request('PATCH', `MedicationRequest/${order.id}`, [{ op: 'replace', path: '/status', value: 'stopped' }]);
    plan.push(`stopped ${order.medicationCodeableConcept?.text}`);
  }
  if (k >= 6.0) {
    await http.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { text: 'Veltassa (patiromer) 8.4 g powder packet' },
      dosageInstruction: [{ text: '8.4 g by mouth once daily with food, 3 hours apart from other medicines' }],
    });
    plan.push('patiromer 8.4 g daily');
  }
  await http.create({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'urgent', subject: { reference: `Patient/${patient}` },
    code: { coding: [{ system: 'http://loinc.org', code: '24321-2', display: 'Basic metabolic 2000 panel - Serum or Plasma' }] },
    occurrenceDateTime: new Date(Date.parse(now) + 86400_000).toISOString(),
  });
  await submit(JSON.stringify({ potassium: k, decision: `${plan.join('; ')}; BMP tomorrow` }));
}
