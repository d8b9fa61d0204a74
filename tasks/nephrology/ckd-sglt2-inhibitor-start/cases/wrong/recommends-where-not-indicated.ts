// Orders correctly where starting is indicated, but where it is not (type 1 diabetes, eGFR < 20) leaves no order yet
// recommends one in the answer and the note ("not ordered by me - please start dapagliflozin"): the words "not
// ordered" are there, the recommendation points the wrong way.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'no order where not indicated, but answer and note recommend starting dapagliflozin';
export const catches = ['decision_stated'];
export const mustFail = 'some';

const FS = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const latest = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;
const day = (o: Observation) => o.effectiveDateTime!.slice(0, 10);
const text = (o: MedicationRequest) => `${o.medicationCodeableConcept?.text ?? ''} ${(o.medicationCodeableConcept?.coding ?? []).map((c) => c.display).join(' ')}`;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const problems = (await http.search<Condition>('Condition', { patient, 'clinical-status': 'active' })).map((c) => c.code?.text ?? '');
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,${FS}|EGFR` }));
  const uacr = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|14959-1,${FS}|UACR` }));
  const k = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|2823-3,${FS}|K` }));
  const on = meds.find((o) => /gliflozin|jardiance|farxiga/i.test(text(o)));
  const raas = meds.filter((o) => /pril\b|sartan/i.test(text(o)));
  const indicated = !on && !problems.some((p) => /type 1 diabetes/i.test(p)) && egfr.valueQuantity!.value! >= 20;
  let line: string;
  if (on) line = `Continue ${on.medicationCodeableConcept?.text}.`;
  else if (indicated) {
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1488564', display: 'dapagliflozin' }] },
      dosageInstruction: [{ text: '10 mg by mouth once daily', doseAndRate: [{ doseQuantity: { value: 10, unit: 'mg' } }] }] });
    line = 'Started dapagliflozin 10 mg once daily.';
  } else line = 'Not ordered by me - please start dapagliflozin 10 mg daily, it protects the kidneys.';
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, code: { coding: [{ system: 'http://loinc.org', code: '14959-1' }] } });
  const note = [
    `${problems.find((p) => /chronic kidney/i.test(p))}. eGFR ${egfr.valueQuantity!.value} mL/min/1.73m2 on ${day(egfr)}; urine albumin/creatinine ratio ${uacr.valueQuantity!.value} mg/g on ${day(uacr)}; potassium ${k.valueQuantity!.value} mmol/L on ${day(k)}.`,
    `On ${raas.map((o) => o.medicationCodeableConcept?.text).join(', ')}.`, line,
  ].join('\n');
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit(line);
}
