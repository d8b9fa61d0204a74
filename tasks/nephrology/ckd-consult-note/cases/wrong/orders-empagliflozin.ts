// Writes the order the requester said they would place.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'places an empagliflozin order although the consult asked for recommendations only';
export const catches = ['note_only'];

const FS = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const latest = (list: Observation[]) => list.filter((o) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error')
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;
const gOf = (e: number) => (e >= 90 ? 'G1' : e >= 60 ? 'G2' : e >= 45 ? 'G3a' : e >= 30 ? 'G3b' : e >= 15 ? 'G4' : 'G5');
const aOf = (u: number) => (u < 30 ? 'A1' : u <= 300 ? 'A2' : 'A3');

async function chart(http: CaseContext['http'], patient: string) {
  const problems = await http.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,${FS}|EGFR` }));
  const uacr = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|14959-1,${FS}|UACR` }));
  const k = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|2823-3,${FS}|K` }));
  const ckd = problems.find((c) => /chronic kidney disease/i.test(c.code?.text ?? ''))!;
  const raas = meds.find((o) => /pril|sartan/i.test(o.medicationCodeableConcept?.text ?? ''))!;
  const diabetes = problems.some((c) => /type 2 diabetes|diabetes mellitus type 2/i.test(c.code?.text ?? ''));
  const hf = problems.some((c) => /heart failure/i.test(c.code?.text ?? ''));
  const e = egfr.valueQuantity!.value!;
  const u = uacr.valueQuantity!.value!;
  const facts = `${ckd.code?.text}. eGFR ${e} mL/min/1.73m2 (${egfr.effectiveDateTime!.slice(0, 10)}), urine albumin/creatinine ratio ${u} mg/g (${uacr.effectiveDateTime!.slice(0, 10)}), potassium ${k.valueQuantity!.value} mmol/L (${k.effectiveDateTime!.slice(0, 10)}). On ${raas.medicationCodeableConcept?.text?.replace(/ MG\b/g, ' mg')}.`;
  return { e, u, facts, strong: e >= 20 && (diabetes || hf || u >= 200) };
}
const note = (http: CaseContext['http'], patient: string, now: string, text: string) => http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
  content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const c = await chart(http, patient);
  await http.create<MedicationRequest>({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1545653', display: 'empagliflozin' }], text: 'empagliflozin 10 mg tablet' },
    dosageInstruction: [{ text: '10 mg by mouth once daily', timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 10, unit: 'mg' } }] }] });
  await note(http, patient, now, `${c.facts}\nAssessment: CKD ${gOf(c.e)}${aOf(c.u)}.\nRecommendations: empagliflozin started.`);
  await submit({ egfr: c.e, uacr: c.u, gCategory: gOf(c.e), aCategory: aOf(c.u) });
}
