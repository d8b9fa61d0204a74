// A nephrologist who holds the ACE inhibitor (on-hold, to re-challenge later) whenever the latest K is >= 5.5, stops
// any potassium supplement, rechecks K in whole blood (LOINC 6298-4) in two days and answers in prose with a
// trailing period. A normal latest K after an earlier high one: continue, no orders.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'holds lisinopril (on-hold) at K >= 5.5, whole-blood K recheck, prose answer ending "mmol/L."';

const K_CODES = 'http://loinc.org|2823-3,http://loinc.org|6298-4,http://ehr-gym.example/fhir/CodeSystem/flowsheet|K';
const drugText = (o: MedicationRequest) => [o.medicationCodeableConcept?.text, ...(o.medicationCodeableConcept?.coding ?? []).map((c) => c.display)].join(' ').toLowerCase();

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const ks = (await http.search<Observation>('Observation', { patient, code: K_CODES }))
    .filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
    .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''));
  const k = ks[0]!.valueQuantity!.value!;
  if (k <= 5.0) {
    await submit(`Latest potassium is ${k} mmol/L. The earlier high value has resolved; continue lisinopril at the same dose.`);
    return;
  }
  for (const order of meds) {
    const text = drugText(order);
    if (/lisinopril/.test(text)) {
      await http.update({ ...order, id: order.id!, status: 'on-hold', statusReason: { text: `On hold for hyperkalemia, K ${k}` } });
    } else if (/potassium chloride|amiloride|triamterene/.test(text)) {
      await http.update({ ...order, id: order.id!, status: 'stopped', statusReason: { text: `Hyperkalemia K ${k}` } });
    }
  }
  await http.create({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
    code: { coding: [{ system: 'http://loinc.org', code: '6298-4', display: 'Potassium [Moles/volume] in Blood' }] },
    occurrenceDateTime: new Date(Date.parse(now) + 2 * 86400_000).toISOString(),
  });
  await submit(`The latest K is ${k} mmol/L. Lisinopril is on hold; repeat potassium in 2 days, then re-challenge at a lower dose once K is below 5.0.`);
}
