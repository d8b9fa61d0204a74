// A CGRP monoclonal antibody first line (AHS 2024 position statement): erenumab 70 mg monthly, except in pregnancy
// (propranolol 40 mg twice daily); coded neurology referral with a reasonReference to the migraine.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, Dosage, MedicationRequest } from '@medplum/fhirtypes';

export const description = 'Aimovig (erenumab) 70 mg SC monthly, propranolol in pregnancy; coded referral with reasonReference';

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
  const migraine = (await http.search<Condition>('Condition', { patient, code: 'http://snomed.info/sct|37796009' }))[0];
  let answer: string;
  if (!c.pregnant) {
    await order(http, patient, now, { text: 'Aimovig (erenumab-aooe) 70 mg/mL autoinjector' },
      { text: 'Inject 70 mg subcutaneously once monthly', timing: { repeat: { frequency: 1, period: 1, periodUnit: 'mo' } }, doseAndRate: [{ doseQuantity: { value: 70, unit: 'mg' } }] });
    answer = 'Started Aimovig (erenumab) 70 mg monthly; CGRP antibodies are a first-line option and avoid the chart\'s contraindications.';
  } else {
    await order(http, patient, now, { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '8787', display: 'propranolol' }], text: 'propranolol 20 mg tablet' }, daily(20, 'mg', '20 mg by mouth twice daily', 2));
    answer = 'Pregnant: started propranolol 20 mg twice daily; no topiramate, valproate or CGRP antibody in pregnancy.';
  }
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '3457005', display: 'Patient referral' }] }],
    code: { coding: [{ system: 'http://snomed.info/sct', code: '3457005', display: 'Patient referral' }] },
    performerType: { coding: [{ system: 'http://snomed.info/sct', code: '394591006', display: 'Neurology' }] },
    reasonReference: migraine ? [{ reference: `Condition/${migraine.id}` }] : undefined, reasonCode: [{ text: 'Frequent migraine' }] });
  await submit(answer);
}
