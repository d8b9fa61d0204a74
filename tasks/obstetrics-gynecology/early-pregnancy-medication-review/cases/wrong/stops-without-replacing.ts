// Stops every contraindicated drug and adds folic acid, but replaces nothing: chronic hypertension left untreated and
// a four-month-old DVT left without anticoagulation.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DocumentReference, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'stops ACE inhibitor and warfarin with no antihypertensive or LMWH';
export const catches = ['pregnancy_orders'];
export const mustFail = 'some';
const L = 'http://loinc.org';
const STOP = /lisinopril|enalapril|ramipril|losartan|valsartan|atorvastatin|simvastatin|rosuvastatin|pravastatin|warfarin|jantoven|isotretinoin|absorica|methotrexate/i;
interface Chart { meds: MedicationRequest[]; text: (o: MedicationRequest) => string; htn: boolean; vte: boolean; kg: number; valproate?: MedicationRequest }
/** Reads what a pregnancy medication review needs. */
async function chart(http: CaseContext['http'], patient: string): Promise<Chart> {
  await http.search<Observation>('Observation', { patient, code: `${L}|2106-3` });
  const kg = (await http.search<Observation>('Observation', { patient, code: `${L}|29463-7`, _sort: '-date' }))[0]?.valueQuantity?.value ?? 70;
  const conditions = await http.search<Condition>('Condition', { patient });
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const text = (o: MedicationRequest) => `${o.medicationCodeableConcept?.text ?? ''} ${(o.medicationCodeableConcept?.coding ?? []).map((c) => c.display).join(' ')}`;
  const named = (re: RegExp) => conditions.some((c) => re.test(c.code?.text ?? ''));
  return { meds, text, htn: named(/hypertens/i), vte: named(/thrombosis|embolism/i), kg, valproate: meds.find((o) => /valpro|depakote/i.test(text(o))) };
}
const rx = (patient: string, now: string, concept: MedicationRequest['medicationCodeableConcept'], sig: string, extra: Partial<MedicationRequest> = {}): MedicationRequest =>
  ({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, medicationCodeableConcept: concept, dosageInstruction: [{ text: sig }], ...extra });
const note = (patient: string, now: string, text: string): DocumentReference => ({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
  content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const c = await chart(http, patient);
  const lines: string[] = [];
  for (const o of c.meds.filter((m) => STOP.test(c.text(m)))) {
    await http.request('PATCH', `MedicationRequest/${o.id}`, [{ op: 'replace', path: '/status', value: 'stopped' }]);
    lines.push(`Stopped ${c.text(o).trim()} (contraindicated in pregnancy).`);
  }
  if (c.valproate) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, code: { text: 'Referral to neurology' } });
    lines.push('Valproate continued; neurology referral.');
  }
  await http.create(rx(patient, now, { text: 'folic acid 0.4 mg tablet' }, '0.4 mg by mouth daily'));
  lines.push('Folic acid 0.4 mg daily; other medications compatible, continue.');
  await http.create(note(patient, now, lines.join(' ')));
  await submit(lines.join(' '));
}
