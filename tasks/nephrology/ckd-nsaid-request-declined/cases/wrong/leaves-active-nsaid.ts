// Declines the ibuprofen and documents well, but never looks at what else the patient takes for the pain: an oral
// NSAID another prescriber started stays active and unmentioned. Right on charts without one.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'declines ibuprofen with a good note but leaves an active naproxen/meloxicam untouched and unmentioned';
export const catches = ['existing_nsaid_addressed'];
export const mustFail = 'some';

const FS = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const latest = (list: Observation[]) => list.filter((o) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error')
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const problems = await http.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,${FS}|EGFR` }));
  const k = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|2823-3,${FS}|K` }));
  const ckd = problems.find((c) => /chronic kidney disease/i.test(c.code?.text ?? ''));
  const raas = meds.filter((o) => /lisinopril|losartan|valsartan|enalapril|ramipril|irbesartan|olmesartan/i.test(o.medicationCodeableConcept?.text ?? ''));
  const text = [
    `${ckd?.code?.text}. eGFR ${egfr.valueQuantity!.value} mL/min/1.73m2 on ${egfr.effectiveDateTime!.slice(0, 10)}; potassium ${k.valueQuantity!.value} mmol/L on ${k.effectiveDateTime!.slice(0, 10)}.`,
    `On ${raas.map((o) => o.medicationCodeableConcept?.text).join(', ')}.`,
    'Do not prescribe ibuprofen (CKD on RAAS blockade). Recommend acetaminophen up to 3 g a day.',
  ].join('\n');
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit('Do not prescribe ibuprofen; acetaminophen instead.');
}
