// A cardiologist who prefers rivaroxaban: scores CHA2DS2-VASc from the chart, doses rivaroxaban by Cockcroft-Gault
// clearance (20 mg daily above 50 mL/min, 15 mg at 15-50), writes the drug as brand text only (no RxNorm coding),
// and answers with the brand name.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'starts text-only "Xarelto" dosed by creatinine clearance; keeps an existing anticoagulant';

const SCORING: [RegExp, number][] = [
  [/^I50|^I11\.0|^I13\.[02]|^84114007$|^42343007$/, 1], // heart failure
  [/^I1[0-6]|^59621000$|^38341003$/, 1], // hypertension
  [/^E1[01]|^44054006$|^46635009$|^73211009$/, 1], // diabetes
  [/^I63|^G45|^Z86\.73|^230690007$|^266257000$|^422504002$/, 2], // stroke / TIA
  [/^I21|^I22|^I25\.2|^I70|^I73\.9|^22298006$|^1755008$|^399957001$/, 1], // MI, PAD, aortic plaque
];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  const conditions = await http.search<Condition>('Condition', { patient });
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const latest = async (code: string) => (await http.search<Observation>('Observation', { patient, code: `http://loinc.org|${code}`, _sort: '-date', _count: 1 }))[0]?.valueQuantity;
  const age = Math.floor((Date.parse(now) - Date.parse(p.birthDate!)) / (365.25 * 86400_000));
  let score = (age >= 75 ? 2 : age >= 65 ? 1 : 0) + (p.gender === 'female' ? 1 : 0);
  for (const [pattern, points] of SCORING) if (conditions.some((c) => (c.code?.coding ?? []).some((k) => pattern.test(k.code ?? '')))) score += points;
  const indicated = score >= (p.gender === 'female' ? 3 : 2);
  const current = meds.find((m) => /apixaban|rivaroxaban|dabigatran|edoxaban|warfarin/i.test(JSON.stringify(m.medicationCodeableConcept)));
  let anticoagulant = 'none';
  if (current) anticoagulant = current.medicationCodeableConcept?.text ?? 'current anticoagulant';
  else if (indicated) {
    const wt = (await latest('29463-7'))!.value!;
    const crQ = (await latest('2160-0'))!;
    const cr = /mol/i.test(crQ.unit ?? '') ? crQ.value! / 88.4 : crQ.value!;
    const crcl = ((140 - age) * wt) / (72 * cr) * (p.gender === 'female' ? 0.85 : 1);
    const mg = crcl > 50 ? 20 : 15;
    await http.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { text: `Xarelto ${mg} mg tablet` },
      dosageInstruction: [{ text: `${mg} mg by mouth once daily with the evening meal`, timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } },
        doseAndRate: [{ doseQuantity: { value: mg, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }] }],
    });
    anticoagulant = `Xarelto ${mg} mg daily (CrCl ${crcl.toFixed(0)} mL/min)`;
  }
  const note = `AF stroke prevention. CHA2DS2-VASc = ${score}. ${indicated ? `Anticoagulation indicated; on ${anticoagulant}.` : 'Low risk; anticoagulation not indicated.'}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit(JSON.stringify({ chadsvasc: score, anticoagulate: indicated, anticoagulant }));
}
