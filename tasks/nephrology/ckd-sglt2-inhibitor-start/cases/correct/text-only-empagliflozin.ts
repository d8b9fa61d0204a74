// Starts empagliflozin with a text-only order (no RxNorm coding, sig in words), orders the UACR as text only, and
// answers the question with a leading "No -" / "Yes -".
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'text-only empagliflozin 10 mg order and text-only "urine ACR", answers "No - ..." / "Yes - ..."';

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
  const on = meds.find((o) => /gliflozin|jardiance|farxiga|invokana/i.test(text(o)));
  const raas = meds.filter((o) => /pril\b|sartan/i.test(text(o)));
  const ckd = problems.find((p) => /chronic kidney disease/i.test(p)) ?? 'Chronic kidney disease';
  const e = egfr.valueQuantity!.value!;
  let line: string;
  let noteLine: string | undefined;
  if (on) line = `Yes - continue ${on.medicationCodeableConcept?.text}.`;
  else if (problems.some((p) => /type 1 diabetes/i.test(p))) {
    line = 'No - not in type 1 diabetes (ketoacidosis risk).';
    noteLine = 'Type 1 diabetes: do not start an SGLT2 inhibitor (ketoacidosis risk).';
  }
  else if (e < 20) line = 'No - eGFR under 20, do not start one.';
  else {
    await http.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { text: 'empagliflozin 10 mg tablet' }, dosageInstruction: [{ text: 'one 10 mg tablet by mouth every morning' }],
    });
    line = 'Yes - started empagliflozin 10 mg every morning.';
  }
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, code: { text: 'urine ACR' } });
  const note = [
    `${ckd}: eGFR ${e} mL/min/1.73m2 on ${day(egfr)}, urine albumin/creatinine ratio ${uacr.valueQuantity!.value} mg/g on ${day(uacr)}, potassium ${k.valueQuantity!.value} mmol/L on ${day(k)}.`,
    `RAAS blockade: ${raas.map((o) => o.medicationCodeableConcept?.text).join(', ')}.`,
    noteLine ?? `SGLT2 inhibitor: ${line}`,
  ].join('\n');
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit(line);
}
