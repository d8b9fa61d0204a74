// Above goal, writes the new dose as a second allopurinol order and leaves the old one running (the patient would
// take both); at goal it rightly changes nothing, so only some charts catch it.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'new dose as a second order, old order left active';
export const catches = ['single_urate_lowering_order'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const newest = (l: Observation[]) => l.filter((o) => o.valueQuantity?.value !== undefined).sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''))[0];
  const u = newest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|3084-1' }))!.valueQuantity!.value!;
  const egfr = newest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3' }))?.valueQuantity?.value ?? 90;
  await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  if (u < 6) {
    await submit(`Urate ${u} mg/dL: at goal, no change.`);
    return;
  }
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, medicationCodeableConcept: { text: 'allopurinol 100 mg tablet' }, dosageInstruction: [{ text: `${egfr < 30 ? 50 : 100} mg by mouth daily (in addition to current dose)` }] });
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, code: { coding: [{ system: 'http://loinc.org', code: '3084-1' }] } });
  await submit(`Urate ${u} mg/dL, not at goal: added allopurinol ${egfr < 30 ? 50 : 100} mg daily on top of the current dose.`);
}
