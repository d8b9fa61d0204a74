// An e-consultant who leaves the other prescriber's NSAID order for them to stop but says so in the note
// ("Recommend stopping naproxen"), answers "Recommend against ibuprofen", and orders acetaminophen by brand, text only.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = '"Recommend against ibuprofen", recommends stopping the active NSAID in the note, orders Tylenol (text only)';

const FS = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const latest = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;
const NSAID = /\b(ibuprofen|naproxen|meloxicam|diclofenac|celecoxib|indomethacin|ketorolac)\b/i;
const RAAS = /\b(lisinopril|enalapril|ramipril|benazepril|losartan|valsartan|irbesartan|olmesartan|candesartan|telmisartan|sacubitril)\b/i;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const problems = await http.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,${FS}|EGFR` }));
  const k = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|2823-3,${FS}|K` }));
  const ckd = problems.find((c) => /chronic kidney disease/i.test(c.code?.text ?? ''));
  const raas = meds.filter((o) => RAAS.test(o.medicationCodeableConcept?.text ?? ''));
  const nsaidNames = meds.map((o) => NSAID.exec(o.medicationCodeableConcept?.text ?? '')?.[1]).filter((n): n is string => !!n);
  await http.create<MedicationRequest>({
    resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { text: 'Tylenol Extra Strength 500 mg tablet' },
    dosageInstruction: [{ text: '1000 mg by mouth every 8 hours as needed for knee pain; max 3 g/day' }],
  });
  const text = [
    `Problem: ${ckd?.code?.text ?? 'chronic kidney disease'}.`,
    `Latest eGFR ${egfr.valueQuantity!.value} mL/min/1.73m2 (${egfr.effectiveDateTime!.slice(0, 10)}), potassium ${k.valueQuantity!.value} mmol/L (${k.effectiveDateTime!.slice(0, 10)}).`,
    `On ${raas.map((o) => o.medicationCodeableConcept?.text).join(' and ')}.`,
    'Recommend against ibuprofen.',
    ...nsaidNames.map((n) => `Recommend stopping ${n}.`),
    'Plan: acetaminophen 1000 mg every 8 hours as needed (maximum 3 g a day).',
  ].join('\n');
  await http.create({
    resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }],
  });
  await submit(`Recommend against ibuprofen.${nsaidNames.length ? ` Please stop ${nsaidNames.join(' and ')} too.` : ''} Acetaminophen ordered instead.`);
}
