// Answers with a JSON "no" and a terse prose reason ("No - not safe here"), puts an active oral NSAID on hold, and
// recommends physical therapy and weight loss (ACR 2019 strongly recommended) with a PT referral.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'JSON {"prescribe": "no"} + "No – not safe here", NSAID on hold, physical therapy referral and weight loss';

const FS = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const latest = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;
const NSAID = /\b(ibuprofen|naproxen|meloxicam|celecoxib|indomethacin|ketorolac)\b/i;
const RAAS = /\b(lisinopril|enalapril|ramipril|benazepril|losartan|valsartan|irbesartan|olmesartan|candesartan|telmisartan|sacubitril)\b/i;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const problems = await http.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,${FS}|EGFR` }));
  const k = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|2823-3,${FS}|K` }));
  const ckd = problems.find((c) => /chronic kidney disease/i.test(c.code?.text ?? ''));
  const raas = meds.filter((o) => RAAS.test(o.medicationCodeableConcept?.text ?? ''));
  for (const o of meds.filter((m) => NSAID.test(m.medicationCodeableConcept?.text ?? ''))) {
    await http.request('PATCH', `MedicationRequest/${o.id}`, [{ op: 'replace', path: '/status', value: 'on-hold' }, { op: 'add', path: '/statusReason', value: { text: 'held: CKD' } }]);
  }
  await http.create({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '3457005', display: 'Patient referral' }] }],
    code: { text: 'Referral to physical therapy' }, reasonCode: [{ text: 'Knee osteoarthritis' }],
  });
  const text = [
    `${ckd?.code?.text ?? 'CKD'}; eGFR ${egfr.valueQuantity!.value} on ${egfr.effectiveDateTime!.slice(0, 10)}, K ${k.valueQuantity!.value} mmol/L on ${k.effectiveDateTime!.slice(0, 10)}.`,
    `Medications: ${raas.map((o) => o.medicationCodeableConcept?.text).join('; ')}.`,
    'Not safe to prescribe ibuprofen with this kidney function on RAAS blockade.',
    'Recommend physical therapy (quadriceps strengthening) and weight loss.',
  ].join('\n');
  await http.create({
    resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }],
  });
  await submit(JSON.stringify({ prescribe: 'no', why: 'No – not safe here: CKD on an ACE inhibitor/ARB.', alternative: 'physical therapy, weight loss' }));
}
