// Right drug, wrong dose: topiramate 200 mg twice daily from day one (the target is 100 mg/day, reached by titration).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, Dosage, MedicationRequest } from '@medplum/fhirtypes';

export const description = 'topiramate 400 mg/day from the start';
export const catches = ['preventive_ordered'];

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
  await order(http, patient, now, { text: c.pregnant ? 'amitriptyline 100 mg tablet' : 'topiramate 200 mg tablet' }, daily(c.pregnant ? 100 : 200, 'mg', 'twice daily', 2));
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    code: { text: 'Referral to neurology' }, reasonCode: [{ text: 'Migraine' }] });
  await submit(c.pregnant ? 'Started amitriptyline.' : 'Started topiramate.');
}
