// Reads the latest creatinine's number without its unit: 115 umol/L (1.30 mg/dL) is taken as ">= 1.5", a second
// criterion for an 82-year-old, and the dose is wrongly reduced.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'takes a creatinine in umol/L as mg/dL';
export const catches = ['criteria_count', 'stated_creatinine', 'apixaban_at_label_dose'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const last = async (code: string) => (await http.search<Observation>('Observation', { patient, code: `http://loinc.org|${code}`, _sort: '-date', _count: 1 }))[0].valueQuantity!;
  const kg = (await last('29463-7')).value!;
  const cr = (await last('2160-0')).value!;
  const age = Math.floor((Date.parse(now) - Date.parse(p.birthDate!)) / 31557600000);
  const met = Number(age >= 80) + Number(kg <= 60) + Number(cr >= 1.5);
  const label = met >= 2 ? 2.5 : 5;
  const order = meds.find((m) => /apixaban|eliquis/i.test(JSON.stringify(m.medicationCodeableConcept)))!;
  const text = JSON.stringify(order.medicationCodeableConcept);
  const current = /2\.5/.test(text) ? 2.5 : 5;
  if (current !== label) {
    await http.update<MedicationRequest>({ ...order, id: order.id!, medicationCodeableConcept: { text: `apixaban ${label} mg tablet` },
      dosageInstruction: [{ text: `${label} mg by mouth twice daily`, doseAndRate: [{ doseQuantity: { value: label, unit: 'mg' } }] }] });
  }
  const note = `Apixaban review: creatinine ${cr}, weight ${kg} kg, age ${age}; ${met} criteria; ${label} mg BID.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ criteriaMet: met, doseAppropriate: current === label, recommendedDoseMg: label, creatinineMgDl: cr, weightKg: kg, ageYears: age });
}
