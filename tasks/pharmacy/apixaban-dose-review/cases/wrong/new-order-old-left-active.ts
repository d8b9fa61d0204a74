// Gets the dose right but writes the corrected dose as a new order without stopping the old one: two active
// apixaban orders (5 mg and 2.5 mg) for the same patient.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'adds the corrected order and leaves the old one active';
export const catches = ['apixaban_at_label_dose'];
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
  const label = met >= 2 ? 2.5 : 5;
  const order = meds.find((m) => /apixaban|eliquis/i.test(JSON.stringify(m.medicationCodeableConcept)))!;
  const current = /2\.5/.test(JSON.stringify(order.medicationCodeableConcept)) ? 2.5 : 5;
  if (current !== label) {
    await http.create<MedicationRequest>({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1364430', display: 'apixaban' }] },
      dosageInstruction: [{ text: `${label} mg by mouth twice daily`, doseAndRate: [{ doseQuantity: { value: label, unit: 'mg' } }] }] });
  }
  const note = `Apixaban review: creatinine ${cr.toFixed(2)} mg/dL, weight ${kg} kg; ${met} criteria; ${label} mg BID.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ criteriaMet: met, doseAppropriate: current === label, recommendedDoseMg: label, creatinineMgDl: Number(cr.toFixed(2)), weightKg: kg, ageYears: age });
}
