// Titrates correctly but "covers" the titration with colchicine 0.6 mg twice daily plus a prednisone course, with no
// flare in the chart (and adds them at goal too).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'right titration + colchicine 0.6 BID + prednisone 20 mg without a flare';
export const catches = ['no_overtreatment'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const newest = (l: Observation[]) => l.filter((o) => o.valueQuantity?.value !== undefined).sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''))[0];
  const u = newest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|3084-1' }))!.valueQuantity!.value!;
  const egfr = newest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3' }))?.valueQuantity?.value ?? 90;
  const subject = { reference: `Patient/${patient}` };
  if (u >= 6) {
    const o = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).find((m) => /allopurinol/i.test(JSON.stringify(m.medicationCodeableConcept)))!;
    const q = o.dosageInstruction?.[0]?.doseAndRate?.[0]?.doseQuantity;
    const strength = Number(/(\d+)\s*mg/i.exec(JSON.stringify(o.medicationCodeableConcept))?.[1] ?? '100');
    const current = q?.value !== undefined && /mg|milligram/i.test(q.unit ?? '') ? q.value : (q?.value ?? 1) * strength;
    const next = current + (egfr < 30 ? 50 : 100);
    await http.update({ ...o, id: o.id!, status: 'stopped', statusReason: { text: 'titration' } });
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { text: `allopurinol ${next} mg` }, dosageInstruction: [{ text: `${next} mg by mouth once daily` }] });
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, authoredOn: now, code: { text: 'uric acid level' } });
  }
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { text: 'colchicine 0.6 mg tablet' }, dosageInstruction: [{ text: '0.6 mg by mouth twice daily' }] });
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { text: 'prednisone 20 mg tablet' }, dosageInstruction: [{ text: '20 mg by mouth daily for 10 days' }] });
  await submit(`Urate ${u} mg/dL, ${u < 6 ? 'at goal' : 'above goal'}. Added colchicine and a prednisone course for flare prophylaxis.`);
}
