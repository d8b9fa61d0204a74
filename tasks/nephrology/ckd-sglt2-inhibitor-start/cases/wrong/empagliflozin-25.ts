// Starts the glycemic dose, empagliflozin 25 mg, where the kidney dose is 10 mg. Otherwise decides correctly.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'starts empagliflozin 25 mg (SCD 1545666) instead of 10 mg';
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
  const e = egfr.valueQuantity!.value!;
  let plan = on ? `Continue ${on.medicationCodeableConcept?.text}.` : 'Do not start an SGLT2 inhibitor.';
  if (!on && !problems.some((p) => /type 1 diabetes/i.test(p)) && e >= 20) {
    await http.create({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1545666', display: 'empagliflozin 25 MG Oral Tablet' }] },
      dosageInstruction: [{ text: '25 mg by mouth once daily', doseAndRate: [{ doseQuantity: { value: 25, unit: 'mg' } }] }],
    });
    plan = 'Started empagliflozin 25 mg once daily.';
  }
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, code: { coding: [{ system: 'http://loinc.org', code: '14959-1' }] } });
  const note = [
    `${problems.find((p) => /chronic kidney/i.test(p))}. eGFR ${e} mL/min/1.73m2 on ${day(egfr)}; urine albumin/creatinine ratio ${uacr.valueQuantity!.value} mg/g on ${day(uacr)}; potassium ${k.valueQuantity!.value} mmol/L on ${day(k)}.`,
    `On ${raas.map((o) => o.medicationCodeableConcept?.text).join(', ')}.`, plan,
  ].join('\n');
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit(plan);
}
