// Scores and decides correctly but starts apixaban 5 mg twice daily regardless of the label's dose-reduction
// criteria (an 82-year-old of 56 kg meets two: 2.5 mg twice daily).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Patient } from '@medplum/fhirtypes';

export const description = 'starts apixaban 5 mg BID even when age and weight call for 2.5 mg';
export const catches = ['anticoagulant_orders'];
export const mustFail = 'some';

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
    await http.create<MedicationRequest>({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1364445', display: 'apixaban 5 MG Oral Tablet' }], text: 'apixaban 5 MG Oral Tablet' },
      dosageInstruction: [{ text: '5 mg by mouth twice daily', doseAndRate: [{ doseQuantity: { value: 5, unit: 'mg' } }] }] });
    anticoagulant = 'apixaban 5 mg BID';
  }
  const note = `CHA2DS2-VASc ${score}. ${indicated ? `Anticoagulation: ${anticoagulant}.` : 'Anticoagulation not indicated.'}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ chadsvasc: score, anticoagulate: indicated, anticoagulant });
}
