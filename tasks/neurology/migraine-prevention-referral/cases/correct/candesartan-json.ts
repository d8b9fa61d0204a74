// Candesartan 8 mg daily (AHS 2021 option) except in pregnancy, where amitriptyline 10 mg at bedtime is chosen; the
// answer is JSON.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, Dosage, MedicationRequest } from '@medplum/fhirtypes';

export const description = 'candesartan 8 mg daily (amitriptyline in pregnancy); JSON answer';

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
  const drug = c.pregnant ? 'amitriptyline' : 'candesartan';
  await order(http, patient, now, { text: `${drug} ${c.pregnant ? 10 : 8} mg tablet` }, daily(c.pregnant ? 10 : 8, 'mg', c.pregnant ? '10 mg at bedtime' : '8 mg once daily'));
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    code: { text: 'Neurology consultation - headache' }, reasonCode: [{ text: 'Migraine prevention; 6-8 headache days a month' }] });
  await submit({ preventive: drug, dose: `${c.pregnant ? 10 : 8} mg daily`, why: c.pregnant ? 'safe in pregnancy at low dose' : 'no contraindication on the chart' });
}
