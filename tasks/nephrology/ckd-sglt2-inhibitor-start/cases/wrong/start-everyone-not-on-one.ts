// Reads the chart but applies "CKD -> SGLT2 inhibitor" to everyone not already on one: starts it in type 1 diabetes
// and below eGFR 20. Right on charts where starting is indicated.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'starts dapagliflozin whenever not already on one (ignores type 1 diabetes and eGFR < 20)';
export const catches = ['sglt2_decision'];
export const mustFail = 'some';

const FS = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const latest = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;
const day = (o: Observation) => o.effectiveDateTime!.slice(0, 10);

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const problems = (await http.search<Condition>('Condition', { patient, 'clinical-status': 'active' })).map((c) => c.code?.text ?? '');
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,${FS}|EGFR` }));
  const uacr = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|14959-1,${FS}|UACR` }));
  const k = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|2823-3,${FS}|K` }));
  const on = meds.find((o) => /gliflozin|jardiance|farxiga/i.test(`${o.medicationCodeableConcept?.text} ${o.medicationCodeableConcept?.coding?.[0]?.display}`));
  const raas = meds.filter((o) => /pril\b|sartan/i.test(o.medicationCodeableConcept?.text ?? ''));
  if (!on) {
    await http.create({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1488564', display: 'dapagliflozin' }], text: 'dapagliflozin 10 mg tablet' },
      dosageInstruction: [{ text: '10 mg by mouth once daily', doseAndRate: [{ doseQuantity: { value: 10, unit: 'mg' } }] }],
    });
  }
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, code: { coding: [{ system: 'http://loinc.org', code: '14959-1' }] } });
  const note = [
    `${problems.find((p) => /chronic kidney/i.test(p))}. eGFR ${egfr.valueQuantity!.value} mL/min/1.73m2 on ${day(egfr)}; urine albumin/creatinine ratio ${uacr.valueQuantity!.value} mg/g on ${day(uacr)}; potassium ${k.valueQuantity!.value} mmol/L on ${day(k)}.`,
    `On ${raas.map((o) => o.medicationCodeableConcept?.text).join(', ')}.`,
    on ? `Continue ${on.medicationCodeableConcept?.text}.` : 'Started dapagliflozin 10 mg once daily.',
  ].join('\n');
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit(on ? 'Yes, already on one; continue.' : 'Yes: started dapagliflozin 10 mg daily.');
}
