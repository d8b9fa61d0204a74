// Handles every other drug correctly but stops valproate at once and starts levetiracetam itself, without neurology.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DocumentReference, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'abrupt valproate -> levetiracetam switch by the generalist';
export const catches = ['teratogen_plan', 'pregnancy_orders'];
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
  for (const o of c.meds.filter((m) => STOP.test(c.text(m)) || m === c.valproate)) {
    await http.request('PATCH', `MedicationRequest/${o.id}`, [{ op: 'replace', path: '/status', value: 'stopped' }]);
    lines.push(`Stopped ${c.text(o).trim()}.`);
  }
  if (c.valproate) {
    await http.create(rx(patient, now, { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '311289', display: 'levetiracetam 500 MG Oral Tablet' }] }, '500 mg by mouth twice daily'));
    lines.push('Switched to levetiracetam 500 mg BID.');
  }
  if (c.htn) { await http.create(rx(patient, now, { text: 'labetalol 100 mg tablet' }, '100 mg by mouth twice daily')); lines.push('Labetalol 100 mg BID.'); }
  if (c.vte) { await http.create(rx(patient, now, { text: 'enoxaparin' }, `${Math.round(c.kg / 10) * 10} mg SC every 12 hours`)); lines.push('Enoxaparin 1 mg/kg q12h.'); }
  await http.create(rx(patient, now, { text: 'folic acid 4 mg tablet' }, '4 mg daily'));
  lines.push('Folic acid 4 mg daily.');
  await http.create(note(patient, now, lines.join(' ')));
  await submit(lines.join(' '));
}
