// Nifedipine ER for chronic hypertension (RxNorm SCD), dalteparin 200 units/kg once daily rounded to a 15,000-unit
// syringe, a prenatal vitamin written as text with its folic acid, an epilepsy-clinic referral in words; prose answer.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DocumentReference, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'nifedipine ER SCD; dalteparin once daily; prenatal vitamin text; epilepsy clinic referral';
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
    lines.push(`Stopped ${c.text(o).trim()} - not safe in pregnancy.`);
  }
  if (c.htn && c.meds.some((m) => /lisinopril|losartan|pril|sartan/i.test(c.text(m)))) {
    await http.create(rx(patient, now, { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '198034', display: '24 HR nifedipine 30 MG Extended Release Oral Tablet' }] }, '1 tablet by mouth once daily'));
    lines.push('Nifedipine ER 30 mg daily for chronic hypertension.');
  }
  if (c.vte && c.meds.some((m) => /warfarin/i.test(c.text(m)))) {
    await http.create(rx(patient, now, { text: 'dalteparin 15,000 units prefilled syringe' }, '15000 units subcutaneously once daily'));
    lines.push(`Dalteparin 15,000 units SC daily (about 200 units/kg for ${c.kg} kg) replaces warfarin.`);
  }
  if (c.valproate) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'urgent', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      code: { text: 'Urgent referral to epilepsy clinic (neurology) - valproate in pregnancy' } });
    lines.push('Valproate continued until neurology reviews it (no abrupt stop); urgent epilepsy clinic referral.');
  }
  await http.create(rx(patient, now, { text: 'Prenatal vitamin with folic acid 1 mg tablet' }, 'take 1 tablet by mouth daily'));
  lines.push('Prenatal vitamin with 1 mg folic acid daily. Everything else is compatible and continues.');
  await http.create(note(patient, now, lines.join(' ')));
  await submit(lines.join(' '));
}
