// Scores correctly from the problem list but never looks at the medication list: starts apixaban on top of the
// anticoagulant the patient already takes.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, Patient } from '@medplum/fhirtypes';

export const description = 'starts apixaban without checking for an active anticoagulant';
export const catches = ['anticoagulant_orders', 'reviewed_medications'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  const codes = (await http.search<Condition>('Condition', { patient })).flatMap((c) => (c.code?.coding ?? []).map((k) => k.code ?? ''));
  const age = Math.floor((Date.parse(now) - Date.parse(p.birthDate!)) / 31557600000);
  const female = p.gender === 'female';
  const any = (re: RegExp) => codes.some((c) => re.test(c));
  const score = (age >= 75 ? 2 : age >= 65 ? 1 : 0) + (female ? 1 : 0) + (any(/^I50/) ? 1 : 0) + (any(/^I1[0-3]/) ? 1 : 0) + (any(/^E1[01]/) ? 1 : 0)
    + (any(/^I63|^G45/) ? 2 : 0) + (any(/^I2[12]|^I25\.2|^I70|^I73/) ? 1 : 0);
  const indicated = score >= (female ? 3 : 2);
  const mg = age >= 80 && female ? 2.5 : 5;
  if (indicated) {
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1364430', display: 'apixaban' }] },
      dosageInstruction: [{ text: `${mg} mg by mouth twice daily`, doseAndRate: [{ doseQuantity: { value: mg, unit: 'mg' } }] }] });
  }
  const note = `CHA2DS2-VASc ${score}. ${indicated ? `Apixaban ${mg} mg BID started.` : 'Anticoagulation not indicated.'}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ chadsvasc: score, anticoagulate: indicated, anticoagulant: indicated ? `apixaban ${mg} mg BID` : 'none' });
}
