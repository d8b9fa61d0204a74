// Doubles lisinopril on every chart without looking at the potassium (K 5.2 chart) or whether the BP is at goal.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'doubles lisinopril regardless of potassium and goal';
export const catches = ['safe_regimen_change', 'regimen_decision'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const part = (o: Observation, code: string) => o.component?.find((c) => c.code?.coding?.some((x) => x.code === code))?.valueQuantity?.value;
  const latest = (l: Observation[]) => l.sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''))[0]!;
  const bp = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|85354-9' }));
  const k = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2823-3' })).valueQuantity!.value;
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3' })).valueQuantity!.value;
  const lis = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => /lisinopril/i.test(JSON.stringify(o.medicationCodeableConcept)));
  const subject = { reference: `Patient/${patient}` };
  let next = 20;
  for (const o of lis) {
    const q = o.dosageInstruction?.[0]?.doseAndRate?.[0]?.doseQuantity;
    const mg = q?.value !== undefined && /mg|milligram/i.test(q.unit ?? '') ? q.value : Number(/(\d+)\s*mg/i.exec(JSON.stringify(o.medicationCodeableConcept))?.[1] ?? '10');
    next = mg * 2;
    await http.update({ ...o, id: o.id!, status: 'stopped', statusReason: { text: 'dose increased' } });
  }
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { text: `lisinopril ${next} mg tablet` }, dosageInstruction: [{ text: `${next} mg by mouth once daily` }] });
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, authoredOn: now, code: { coding: [{ system: 'http://loinc.org', code: '51990-0', display: 'Basic metabolic panel - Blood' }] } });
  const text = `Essential hypertension. Blood pressure ${part(bp, '8480-6')}/${part(bp, '8462-4')} mmHg. Potassium ${k} mmol/L, eGFR ${egfr} mL/min/1.73m2. Increase lisinopril to ${next} mg daily; BMP in 2 weeks.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(`Lisinopril increased to ${next} mg daily; BMP ordered.`);
}
