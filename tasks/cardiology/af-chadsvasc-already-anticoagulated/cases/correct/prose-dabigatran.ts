// A cardiologist who answers in prose rather than JSON and who starts dabigatran (150 mg twice daily above a
// creatinine clearance of 30 mL/min, 75 mg at 15-30), coded as the RxNorm ingredient with a text sig.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'answers in prose; starts dabigatran by clearance with a text-only sig';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  const conditions = await http.search<Condition>('Condition', { patient, 'clinical-status': 'active,resolved,inactive' });
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient });
  const codes = conditions.flatMap((c) => (c.code?.coding ?? []).map((k) => k.code ?? ''));
  const any = (re: RegExp) => codes.some((c) => re.test(c));
  const age = Math.floor((Date.parse(now) - Date.parse(`${p.birthDate}T00:00:00Z`)) / 31557600000);
  const female = p.gender === 'female';
  const items: string[] = [];
  if (age >= 75) items.push('age >= 75 (2)'); else if (age >= 65) items.push('age 65-74 (1)');
  if (female) items.push('female (1)');
  if (any(/^I50/)) items.push('CHF (1)');
  if (any(/^I1[0-3]/)) items.push('HTN (1)');
  if (any(/^E1[01]/)) items.push('DM (1)');
  if (any(/^I63|^G45/)) items.push('stroke/TIA (2)');
  if (any(/^I2[12]|^I25\.2|^I70|^I73/)) items.push('vascular disease (1)');
  const score = items.reduce((s, i) => s + Number(/\((\d)\)/.exec(i)![1]), 0);
  const indicated = score >= (female ? 3 : 2);
  const current = meds.find((m) => m.status === 'active' && /apixaban|rivaroxaban|dabigatran|edoxaban|warfarin/i.test(m.medicationCodeableConcept?.text ?? ''));
  let sentence: string;
  if (current) sentence = `Anticoagulation is indicated and already in place: continue ${current.medicationCodeableConcept!.text}. Nothing new ordered.`;
  else if (indicated) {
    const wt = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|29463-7', _sort: '-date', _count: 1 }))[0].valueQuantity!.value!;
    const crQ = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2160-0', _sort: '-date', _count: 1 }))[0].valueQuantity!;
    const cr = crQ.unit?.includes('mol') ? crQ.value! / 88.4 : crQ.value!;
    const crcl = ((140 - age) * wt) / (72 * cr) * (female ? 0.85 : 1);
    const mg = crcl > 30 ? 150 : 75;
    await http.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1546356', display: 'dabigatran' }], text: `dabigatran etexilate ${mg} MG Oral Capsule` },
      dosageInstruction: [{ text: `Take ${mg} mg by mouth twice daily` }],
    });
    sentence = `Recommend anticoagulation: started dabigatran ${mg} mg twice daily (CrCl about ${Math.round(crcl)} mL/min).`;
  } else sentence = 'Anticoagulation is not indicated at this score, and aspirin is not a substitute; reassess yearly.';
  const text = `CHA2DS2-VASc score: ${score} (${items.join(', ') || 'none'}). ${sentence}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, description: 'AF consult',
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(text);
}
