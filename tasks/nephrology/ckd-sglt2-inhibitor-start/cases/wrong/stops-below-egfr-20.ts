// Treats eGFR 20 as a stop rule as well as a start rule: stops an SGLT2 inhibitor the patient is already on once the
// eGFR is below 20 (KDIGO 2024 practice point 3.7.1 says continue). Otherwise decides correctly.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'stops an existing SGLT2 inhibitor when the eGFR is below 20';
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
  let plan: string;
  if (on && e < 20) {
    await http.update({ ...on, id: on.id!, status: 'stopped', statusReason: { text: 'eGFR below 20' } });
    plan = `Stopped ${on.medicationCodeableConcept?.text}: eGFR below 20.`;
  } else if (on) plan = `Continue ${on.medicationCodeableConcept?.text}.`;
  else if (problems.some((p) => /type 1 diabetes/i.test(p)) || e < 20) plan = 'Do not start an SGLT2 inhibitor.';
  else {
    await http.create({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1545653', display: 'empagliflozin' }] },
      dosageInstruction: [{ text: '10 mg by mouth once daily', doseAndRate: [{ doseQuantity: { value: 10, unit: 'mg' } }] }],
    });
    plan = 'Started empagliflozin 10 mg once daily.';
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
