// Lowers the ACE inhibitor dose instead of stopping it: at K >= 5.5 the current lisinopril order is stopped and a
// new one at half the daily dose written ("1 tablet" of the 10 mg SCD, or 5 mg by ingredient); any potassium
// supplement is cancelled; a renal function panel (LOINC 24362-6) in two days.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'halves lisinopril at K >= 5.5 (new order "1 tablet" of 10 mg SCD / 5 mg), renal panel 24362-6, K last with a period';

const K_CODES = 'http://loinc.org|2823-3,http://loinc.org|6298-4,http://ehr-gym.example/fhir/CodeSystem/flowsheet|K';
const RX = 'http://www.nlm.nih.gov/research/umls/rxnorm';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const ks = (await http.search<Observation>('Observation', { patient, code: K_CODES }))
    .filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
    .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''));
  const k = ks[0]!.valueQuantity!.value!;
  if (k <= 5.0) {
    await submit(`K ${k} mmol/L. No change: continue lisinopril.`);
    return;
  }
  const supplements = meds.filter((o) => /potassium chloride|amiloride|triamterene/i.test(o.medicationCodeableConcept?.text ?? ''));
  for (const order of supplements) {
    await http.update({ ...order, id: order.id!, status: 'cancelled', statusReason: { text: 'Hyperkalemia' } });
  }
  const notes: string[] = supplements.map((o) => `cancelled ${o.medicationCodeableConcept?.text}`);
  for (const order of meds.filter((o) => /lisinopril/i.test(o.medicationCodeableConcept?.text ?? ''))) {
    const mg = order.dosageInstruction?.[0]?.doseAndRate?.[0]?.doseQuantity?.value ?? Number(/(\d+)\s*MG/i.exec(order.medicationCodeableConcept?.text ?? '')?.[1]);
    await http.update({ ...order, id: order.id!, status: 'stopped', statusReason: { text: `Dose reduced for K ${k}` } });
    const half = mg / 2;
    const drug = half === 10
      ? { medicationCodeableConcept: { coding: [{ system: RX, code: '314076', display: 'lisinopril 10 MG Oral Tablet' }], text: 'lisinopril 10 MG Oral Tablet' }, dose: { value: 1, unit: 'tablet' } }
      : { medicationCodeableConcept: { coding: [{ system: RX, code: '29046', display: 'lisinopril' }], text: `lisinopril ${half} mg tablet` }, dose: { value: half, unit: 'mg' } };
    await http.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: drug.medicationCodeableConcept,
      dosageInstruction: [{ text: `${drug.dose.value} ${drug.dose.unit} by mouth once daily`, timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } },
        doseAndRate: [{ doseQuantity: { value: drug.dose.value, unit: drug.dose.unit } }] }],
    });
    notes.push(`lisinopril reduced to ${half} mg daily`);
  }
  await http.create({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
    code: { coding: [{ system: 'http://loinc.org', code: '24362-6', display: 'Renal function 2000 panel - Serum or Plasma' }] },
    occurrenceDateTime: new Date(Date.parse(now) + 2 * 86400_000).toISOString(),
  });
  // The K comes last, after another number near "potassium" (the supplement's 20 mEq), and ends the sentence.
  await submit(`${[...notes, 'renal panel in 2 days'].join('; ')}. Latest K ${k} mmol/L.`);
}
