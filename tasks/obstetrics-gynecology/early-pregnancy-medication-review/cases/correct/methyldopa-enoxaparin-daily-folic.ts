// Methyldopa 250 mg three times daily, enoxaparin 1.5 mg/kg once daily, folic acid by its local formulary code (4 mg
// with valproate, 0.8 mg otherwise), the isotretinoin course marked completed, a neurology referral by SNOMED; JSON.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DocumentReference, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'methyldopa TID; enoxaparin 1.5 mg/kg daily; folic acid 0.8 or 4 mg coded; JSON answer';
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
  const stopped: string[] = [];
  const started: string[] = [];
  for (const o of c.meds.filter((m) => STOP.test(c.text(m)))) {
    await http.request('PATCH', `MedicationRequest/${o.id}`, [{ op: 'replace', path: '/status', value: /isotretinoin|absorica/i.test(c.text(o)) ? 'completed' : 'stopped' }]);
    stopped.push(c.text(o).trim());
  }
  if (c.htn && stopped.some((s) => /pril|sartan/i.test(s))) {
    await http.create(rx(patient, now, { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '6876', display: 'methyldopa' }] }, '250 mg by mouth three times daily'));
    started.push('methyldopa 250 mg TID');
  }
  if (c.vte && stopped.some((s) => /warfarin/i.test(s))) {
    const mg = Math.round((c.kg * 1.5) / 10) * 10;
    await http.create(rx(patient, now, { text: 'enoxaparin' }, `${mg} mg SC once daily`));
    started.push(`enoxaparin ${mg} mg SC daily`);
  }
  if (c.valproate) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      category: [{ coding: [{ system: 'http://snomed.info/sct', code: '3457005', display: 'Patient referral' }] }], performerType: { coding: [{ system: 'http://snomed.info/sct', code: '394591006', display: 'Neurology' }] } });
  }
  const mg = c.valproate ? 4 : 0.8;
  await http.create(rx(patient, now, { coding: [{ system: 'http://ehr-gym.example/fhir/CodeSystem/formulary', code: 'folic acid' }] }, `${mg} mg by mouth daily`));
  started.push(`folic acid ${mg} mg daily`);
  const prose = `${stopped.length ? `Discontinued ${stopped.join(', ')} (contraindicated in pregnancy).` : 'No contraindicated medications; the current list is compatible and continues unchanged.'} Started ${started.join(', ')}.${c.valproate ? ' Valproate is kept for now and neurology will review it; do not stop abruptly.' : ''}`;
  await http.create(note(patient, now, prose));
  await submit(JSON.stringify({ stopped, started, summary: prose }));
}
