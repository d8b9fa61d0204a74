// Reads everything and counts correctly, but "apixaban dosing is usually fine": always answers that the dose is
// appropriate and changes nothing, leaving an overdose (two criteria on 5 mg) or an underdose (one criterion on 2.5 mg).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'always "dose appropriate, no change"';
export const catches = ['dose_judgement', 'apixaban_at_label_dose'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const last = async (code: string) => (await http.search<Observation>('Observation', { patient, code: `http://loinc.org|${code}`, _sort: '-date', _count: 1 }))[0].valueQuantity!;
  const kg = (await last('29463-7')).value!;
  const c = await last('2160-0');
  const cr = c.unit === 'umol/L' ? c.value! / 88.4 : c.value!;
  const age = Math.floor((Date.parse(now) - Date.parse(p.birthDate!)) / 31557600000);
  const met = Number(age >= 80) + Number(kg <= 60) + Number(cr >= 1.5);
  const note = `Apixaban review: creatinine ${cr.toFixed(2)} mg/dL, weight ${kg} kg, age ${age}; ${met} criteria. Dose appropriate, no change.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ criteriaMet: met, doseAppropriate: true, creatinineMgDl: Number(cr.toFixed(2)), weightKg: kg, ageYears: age });
}
