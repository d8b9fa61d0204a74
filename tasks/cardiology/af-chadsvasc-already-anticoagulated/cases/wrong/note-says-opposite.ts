// Scores, decides, orders and answers correctly, but the chart note (copied from a template) recommends the opposite:
// "anticoagulation not indicated" for a patient who needs it, "start anticoagulation" for one who does not.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'right orders and answer; the note recommends the opposite';
export const catches = ['rationale_note'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  const codes = (await http.search<Condition>('Condition', { patient })).flatMap((c) => (c.code?.coding ?? []).map((k) => k.code ?? ''));
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const age = Math.floor((Date.parse(now) - Date.parse(p.birthDate!)) / 31557600000);
  const female = p.gender === 'female';
  const any = (re: RegExp) => codes.some((c) => re.test(c));
  const score = (age >= 75 ? 2 : age >= 65 ? 1 : 0) + (female ? 1 : 0) + (any(/^I50/) ? 1 : 0) + (any(/^I1[0-3]/) ? 1 : 0) + (any(/^E1[01]/) ? 1 : 0)
    + (any(/^I63|^G45/) ? 2 : 0) + (any(/^I2[12]|^I25\.2|^I70|^I73/) ? 1 : 0);
  const indicated = score >= (female ? 3 : 2);
  const on = meds.find((m) => /apixaban|rivaroxaban|dabigatran|edoxaban|warfarin/i.test(m.medicationCodeableConcept?.text ?? ''));
  let anticoagulant = on?.medicationCodeableConcept?.text ?? 'none';
  if (!on && indicated) {
    const last = async (code: string) => (await http.search<Observation>('Observation', { patient, code: `http://loinc.org|${code}`, _sort: '-date', _count: 1 }))[0].valueQuantity!.value!;
    const mg = [age >= 80, (await last('29463-7')) <= 60, (await last('2160-0')) >= 1.5].filter(Boolean).length >= 2 ? 2.5 : 5;
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1364430', display: 'apixaban' }] },
      dosageInstruction: [{ text: `${mg} mg by mouth twice daily`, doseAndRate: [{ doseQuantity: { value: mg, unit: 'mg' } }] }] });
    anticoagulant = `apixaban ${mg} mg BID`;
  }
  const note = `AF review. CHA2DS2-VASc ${score}. ${indicated ? 'Anticoagulation is not indicated; no anticoagulant needed.' : 'Recommend starting anticoagulation with apixaban.'}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ chadsvasc: score, anticoagulate: indicated, anticoagulant });
}
