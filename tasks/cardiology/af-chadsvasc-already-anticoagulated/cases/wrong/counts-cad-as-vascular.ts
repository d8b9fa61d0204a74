// Counts coronary artery disease without an infarction as "vascular disease" (the instruction defines it as prior
// MI, PAD or aortic plaque), so a woman with CAD alone scores 2 and is anticoagulated.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Patient } from '@medplum/fhirtypes';

export const description = 'scores CAD without MI as vascular disease and anticoagulates from 2';
export const catches = ['chadsvasc_score', 'anticoagulant_orders'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  const codes = (await http.search<Condition>('Condition', { patient })).flatMap((c) => (c.code?.coding ?? []).map((k) => k.code ?? ''));
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const age = Math.floor((Date.parse(now) - Date.parse(p.birthDate!)) / 31557600000);
  const any = (re: RegExp) => codes.some((c) => re.test(c));
  const score = (age >= 75 ? 2 : age >= 65 ? 1 : 0) + (p.gender === 'female' ? 1 : 0) + (any(/^I50/) ? 1 : 0) + (any(/^I1[0-3]/) ? 1 : 0) + (any(/^E1[01]/) ? 1 : 0)
    + (any(/^I63|^G45/) ? 2 : 0) + (any(/^I2[125]|^I70|^I73/) ? 1 : 0);
  const on = meds.find((m) => /apixaban|rivaroxaban|dabigatran|edoxaban|warfarin/i.test(m.medicationCodeableConcept?.text ?? ''));
  const anticoagulate = score >= 2;
  let anticoagulant = on?.medicationCodeableConcept?.text ?? 'none';
  if (!on && anticoagulate) {
    await http.create<MedicationRequest>({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1364445', display: 'apixaban 5 MG Oral Tablet' }] },
      dosageInstruction: [{ text: '5 mg by mouth twice daily', doseAndRate: [{ doseQuantity: { value: 5, unit: 'mg' } }] }] });
    anticoagulant = 'apixaban 5 mg BID';
  }
  const note = `CHA2DS2-VASc ${score}. ${anticoagulate ? `Anticoagulate: ${anticoagulant}.` : 'No anticoagulation.'}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ chadsvasc: score, anticoagulate, anticoagulant });
}
