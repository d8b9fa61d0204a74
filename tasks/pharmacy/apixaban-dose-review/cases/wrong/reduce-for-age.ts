// Reduces apixaban for age alone ("over 80, give 2.5 mg"), the most common off-label under-dosing: the label needs
// two criteria.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'age >= 80 alone means 2.5 mg BID';
export const catches = ['apixaban_at_label_dose', 'dose_judgement'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const last = async (code: string) => (await http.search<Observation>('Observation', { patient, code: `http://loinc.org|${code}`, _sort: '-date', _count: 1 }))[0].valueQuantity!;
  const kg = (await last('29463-7')).value!;
  const c = await last('2160-0');
  const cr = c.unit === 'umol/L' ? c.value! / 88.4 : c.value!;
  const age = Math.floor((Date.parse(now) - Date.parse(p.birthDate!)) / 31557600000);
  const met = Number(age >= 80) + Number(kg <= 60) + Number(cr >= 1.5);
  const want = age >= 80 ? 2.5 : 5;
  const order = meds.find((m) => /apixaban|eliquis/i.test(JSON.stringify(m.medicationCodeableConcept)))!;
  const text = JSON.stringify(order.medicationCodeableConcept);
  const current = /2\.5/.test(text) ? 2.5 : 5;
  if (current !== want) {
    await http.update<MedicationRequest>({ ...order, id: order.id!, medicationCodeableConcept: { text: `apixaban ${want} mg tablet` },
      dosageInstruction: [{ text: `${want} mg by mouth twice daily`, doseAndRate: [{ doseQuantity: { value: want, unit: 'mg' } }] }] });
  }
  const note = `Apixaban review: creatinine ${cr.toFixed(2)} mg/dL, weight ${kg} kg, age ${age}. ${want} mg BID.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ criteriaMet: met, doseAppropriate: current === want, recommendedDoseMg: want, creatinineMgDl: Number(cr.toFixed(2)), weightKg: kg, ageYears: age });
}
