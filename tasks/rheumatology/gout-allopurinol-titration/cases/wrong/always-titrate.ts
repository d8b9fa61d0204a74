// Adds 100 mg of allopurinol on every chart, whatever the urate and the kidneys (right only above goal with eGFR >= 30).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'always +100 mg (at goal, CKD stage 4)';
export const catches = ['urate_lowering_plan'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const urate = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|3084-1', _sort: '-date' }))
    .filter((o) => o.valueQuantity?.value !== undefined).sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''))[0]!;
  const o = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).find((m) => /allopurinol/i.test(JSON.stringify(m.medicationCodeableConcept)))!;
  const q = o.dosageInstruction?.[0]?.doseAndRate?.[0]?.doseQuantity;
  const strength = Number(/(\d+)\s*mg/i.exec(JSON.stringify(o.medicationCodeableConcept))?.[1] ?? '100');
  const current = q?.value !== undefined && /mg|milligram/i.test(q.unit ?? '') ? q.value : (q?.value ?? 1) * strength;
  await http.update({ ...o, id: o.id!, status: 'stopped', statusReason: { text: 'titration' } });
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, medicationCodeableConcept: { text: `allopurinol ${current + 100} mg tablet` }, dosageInstruction: [{ text: `${current + 100} mg by mouth daily` }] });
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, code: { coding: [{ system: 'http://loinc.org', code: '3084-1' }] } });
  const u = urate.valueQuantity!.value!;
  await submit(`Urate ${u} mg/dL (${u < 6 ? 'at goal' : 'not at goal'}). Allopurinol increased to ${current + 100} mg daily for tighter control.`);
}
