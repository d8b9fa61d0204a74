// Labetalol 200 mg tablets twice daily (SCD, one tablet), enoxaparin 0.8 mL of the 100 mg/mL syringe every 12 hours
// (80 mg for 72 kg: rounded up to a syringe), Folvite 1 mg (brand), neurology consult as text.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DocumentReference, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'labetalol 200 mg SCD x1 BID; enoxaparin 0.8 mL syringe q12h; Folvite 1 mg';
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
  const parts: string[] = [];
  for (const o of c.meds.filter((m) => STOP.test(c.text(m)))) {
    await http.request('PATCH', `MedicationRequest/${o.id}`, [{ op: 'replace', path: '/status', value: 'stopped' }, { op: 'add', path: '/statusReason', value: { text: 'pregnancy' } }]);
    parts.push(`${c.text(o).trim()}: stop (teratogenic).`);
  }
  const twice = { repeat: { frequency: 2, period: 1, periodUnit: 'd' as const } };
  if (c.htn && parts.some((p) => /lisinopril/i.test(p))) {
    await http.create(rx(patient, now, { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '896762', display: 'labetalol hydrochloride 200 MG Oral Tablet' }] }, '1 tab PO BID',
      { dosageInstruction: [{ text: '1 tab PO BID', timing: twice, doseAndRate: [{ doseQuantity: { value: 1, unit: 'tablet' } }] }] }));
    parts.push('Labetalol 200 mg BID started.');
  }
  if (c.vte && parts.some((p) => /warfarin/i.test(p))) {
    await http.create(rx(patient, now, { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '854241', display: '0.8 ML enoxaparin sodium 100 MG/ML Prefilled Syringe' }] }, 'inject 0.8 mL (80 mg) subcut q12h',
      { dosageInstruction: [{ text: 'inject 0.8 mL (80 mg) subcut q12h', timing: twice, doseAndRate: [{ doseQuantity: { value: 0.8, unit: 'mL', system: 'http://unitsofmeasure.org', code: 'mL' } }] }] }));
    parts.push('Enoxaparin 80 mg SC q12h started in place of warfarin.');
  }
  if (c.valproate) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, code: { text: 'Neurology consult: epilepsy on valproate, newly pregnant' } });
    parts.push('Depakote stays on until the neurology consult - never stop an antiseizure drug abruptly.');
  }
  await http.create(rx(patient, now, { text: 'Folvite 1 mg tablet' }, '1 mg by mouth once daily'));
  parts.push('Folic acid 1 mg daily.');
  if (!c.meds.some((m) => STOP.test(c.text(m))) && !c.valproate) parts.push('Her other medications are compatible with pregnancy - continue.');
  await http.create(note(patient, now, parts.join(' ')));
  await submit(parts.join(' '));
}
