// Text-only brand orders (no RxNorm code): Topamax, or Inderal LA in pregnancy, or amitriptyline where a beta
// blocker is ruled out; the referral is text-only with its reason in a note; the answer names the brand.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, Dosage, MedicationRequest } from '@medplum/fhirtypes';

export const description = 'text-only brand preventive (Topamax / Inderal LA / amitriptyline by chart), text-only headache clinic referral with a note';

async function chart(http: CaseContext['http'], patient: string) {
  await http.read('Patient', patient);
  const problems = (await http.search<Condition>('Condition', { patient, 'clinical-status': 'active' })).map((c) => c.code?.text ?? '').join(' | ');
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).map((o) => o.medicationCodeableConcept?.text ?? '').join(' | ');
  await http.search('AllergyIntolerance', { patient });
  return { pregnant: /pregnan/i.test(problems), asthma: /asthma/i.test(problems), onBeta: /olol/i.test(meds), onSsri: /sertraline|escitalopram|citalopram|fluoxetine|paroxetine/i.test(meds) };
}
const order = (http: CaseContext['http'], patient: string, now: string, med: MedicationRequest['medicationCodeableConcept'], dosage: Dosage) => http.create<MedicationRequest>({
  resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, medicationCodeableConcept: med, dosageInstruction: [dosage] });
const daily = (value: number, unit: string, text: string, frequency = 1): Dosage => ({ text, timing: { repeat: { frequency, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value, unit } }] });

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const c = await chart(http, patient);
  let answer: string;
  if (!c.pregnant) {
    await order(http, patient, now, { text: 'Topamax 25 mg tablet' }, daily(1, 'tablet', '1 tablet by mouth at bedtime'));
    answer = 'Started Topamax 25 mg at bedtime (not pregnant, level A).';
  } else if (!c.asthma && !c.onBeta) {
    await order(http, patient, now, { text: 'Inderal LA 60 mg capsule' }, daily(60, 'mg', '60 mg by mouth once daily'));
    answer = 'Started Inderal LA 60 mg daily - compatible with pregnancy, no asthma.';
  } else {
    await order(http, patient, now, { text: 'amitriptyline 10 mg tablet' }, daily(10, 'mg', '10 mg by mouth at bedtime'));
    answer = 'Started amitriptyline 10 mg at bedtime.';
  }
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    code: { text: 'Referral to headache clinic (neurology)' }, note: [{ text: 'Migraine 6-8 days/month despite sumatriptan; preventive started.' }] });
  await submit(answer);
}
