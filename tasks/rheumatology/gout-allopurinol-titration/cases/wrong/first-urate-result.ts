// Takes the first urate the search returns (oldest first) as the current value and acts on it.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'acts on the oldest urate';
export const catches = ['stated_urate_and_goal', 'urate_lowering_plan'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const first = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|3084-1', _sort: 'date' })).find((o) => o.valueQuantity?.value !== undefined)!;
  const u = first.valueQuantity!.value!;
  if (u < 6) {
    await submit(`Urate ${u} mg/dL - at goal. No change.`);
    return;
  }
  const o = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).find((m) => /allopurinol/i.test(JSON.stringify(m.medicationCodeableConcept)))!;
  const q = o.dosageInstruction?.[0]?.doseAndRate?.[0]?.doseQuantity;
  const strength = Number(/(\d+)\s*mg/i.exec(JSON.stringify(o.medicationCodeableConcept))?.[1] ?? '100');
  const current = q?.value !== undefined && /mg|milligram/i.test(q.unit ?? '') ? q.value : (q?.value ?? 1) * strength;
  await http.update({ ...o, id: o.id!, status: 'stopped', statusReason: { text: 'titration' } });
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, medicationCodeableConcept: { text: `allopurinol ${current + 100} mg` }, dosageInstruction: [{ text: `${current + 100} mg by mouth daily` }] });
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, code: { coding: [{ system: 'http://loinc.org', code: '3084-1' }] } });
  await submit(`Urate ${u} mg/dL - not at goal. Allopurinol to ${current + 100} mg.`);
}
