// Declines ibuprofen but orders celecoxib as the "kidney-safer" NSAID: a COX-2 inhibitor carries the same renal risk.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'declines ibuprofen, orders Celebrex 200 mg daily (brand, text only) instead';
export const catches = ['no_systemic_nsaid_ordered'];

const FS = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const latest = (list: Observation[]) => list.filter((o) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error')
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const problems = await http.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,${FS}|EGFR` }));
  const k = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|2823-3,${FS}|K` }));
  const ckd = problems.find((c) => /chronic kidney disease/i.test(c.code?.text ?? ''));
  const raas = meds.filter((o) => /lisinopril|losartan|valsartan|enalapril|ramipril/i.test(o.medicationCodeableConcept?.text ?? ''));
  await http.create({
    resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { text: 'Celebrex 200 mg capsule' }, dosageInstruction: [{ text: '200 mg by mouth once daily' }],
  });
  const text = [
    `${ckd?.code?.text}. eGFR ${egfr.valueQuantity!.value} mL/min/1.73m2; potassium ${k.valueQuantity!.value} mmol/L.`,
    `On ${raas.map((o) => o.medicationCodeableConcept?.text).join(', ')}.`,
    'Ibuprofen not prescribed. Started celecoxib 200 mg daily instead; add acetaminophen as needed.',
  ].join('\n');
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit('No ibuprofen; celecoxib 200 mg daily started instead.');
}
