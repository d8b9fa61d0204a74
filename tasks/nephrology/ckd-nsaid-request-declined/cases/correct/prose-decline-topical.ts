// Declines in plain prose ("I would not prescribe ibuprofen"), stops a systemic NSAID another prescriber started,
// and recommends topical diclofenac gel; the note states the latest labs and the RAAS blocker as the chart holds them.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = '"I would not prescribe ibuprofen", stops an active oral NSAID, topical diclofenac in the note';

const FS = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const latest = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;
const NSAID = /\b(ibuprofen|naproxen|meloxicam|diclofenac|celecoxib|indomethacin|ketorolac|etodolac|nabumetone|piroxicam)\b/i;
const RAAS = /\b(lisinopril|enalapril|ramipril|benazepril|captopril|quinapril|losartan|valsartan|irbesartan|olmesartan|candesartan|telmisartan|sacubitril)\b/i;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const problems = await http.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,http://loinc.org|62238-1,${FS}|EGFR` }));
  const k = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|2823-3,${FS}|K` }));
  const ckd = problems.find((c) => /chronic kidney disease/i.test(c.code?.text ?? ''));
  const raas = meds.filter((o) => RAAS.test(o.medicationCodeableConcept?.text ?? ''));
  const nsaids = meds.filter((o) => NSAID.test(o.medicationCodeableConcept?.text ?? '') && !/gel|topical/i.test(o.medicationCodeableConcept?.text ?? ''));
  for (const o of nsaids) await http.update({ ...o, id: o.id!, status: 'stopped', statusReason: { text: 'NSAID in CKD on RAAS blockade' } });
  const text = [
    `${ckd?.code?.text ?? 'Chronic kidney disease'}. eGFR ${egfr.valueQuantity!.value} mL/min/1.73m2 on ${egfr.effectiveDateTime!.slice(0, 10)}; potassium ${k.valueQuantity!.value} mmol/L on ${k.effectiveDateTime!.slice(0, 10)}.`,
    `Current RAAS blockade: ${raas.map((o) => o.medicationCodeableConcept?.text).join(', ')}.`,
    ...nsaids.map((o) => `Discontinued ${o.medicationCodeableConcept?.text} today.`),
    'I would not prescribe ibuprofen: an oral NSAID with CKD and an ACE inhibitor/ARB risks acute kidney injury and hyperkalemia.',
    'Recommend diclofenac 1% gel to the knee four times daily.',
  ].join('\n');
  await http.create({
    resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    type: { coding: [{ system: 'http://loinc.org', code: '11488-4', display: 'Consult note' }] },
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }],
  });
  await submit('I would not prescribe ibuprofen here (CKD on RAAS blockade). Topical diclofenac instead; see my note.');
}
