// A pharmacist who corrects the dose in place: the same order is updated to the brand "Eliquis 2.5 mg tablet" (or
// 5 mg) written as text only, with a dose of "1 tablet" twice daily; a right dose is left untouched.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'updates the order in place to text-only "Eliquis N mg tablet", 1 tablet BID';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const obs = async (code: string) => (await http.search<Observation>('Observation', { patient, code: `http://loinc.org|${code}`, _sort: '-date', _count: 1 }))[0];
  const weight = await obs('29463-7');
  const creat = await obs('2160-0');
  const age = Math.floor((Date.parse(now) - Date.parse(p.birthDate!)) / 31557600000);
  const kg = weight.valueQuantity!.value!;
  const cr = /mol/i.test(creat.valueQuantity!.unit ?? '') ? creat.valueQuantity!.value! / 88.4 : creat.valueQuantity!.value!;
  const met = [age >= 80, kg <= 60, cr >= 1.5].filter(Boolean).length;
  const label = met >= 2 ? 2.5 : 5;
  const order = meds.find((m) => /apixaban|eliquis/i.test(JSON.stringify(m.medicationCodeableConcept)))!;
  const name = JSON.stringify(order.medicationCodeableConcept);
  const q = order.dosageInstruction?.[0]?.doseAndRate?.[0]?.doseQuantity;
  const current = /mg|milligram/i.test(q?.unit ?? '') ? q!.value! : (/2\.5 MG/i.test(name) ? 2.5 : 5) * (q?.value ?? 1);
  const ok = current === label;
  if (!ok) {
    await http.update<MedicationRequest>({ ...order, id: order.id!, medicationCodeableConcept: { text: `Eliquis ${label} mg tablet` },
      dosageInstruction: [{ text: '1 tablet by mouth twice daily', doseAndRate: [{ doseQuantity: { value: 1, unit: 'tablet' } }] }] });
  }
  const note = `Apixaban (Eliquis) dose check. Age ${age}, weight ${kg} kg, creatinine ${cr.toFixed(2)} mg/dL: ${met} of 3 reduction criteria. ${ok ? 'Dose appropriate, unchanged.' : `Changed ${current} mg to ${label} mg BID.`}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ criteriaMet: met, doseAppropriate: ok, recommendedDoseMg: label, ageYears: age, weightKg: kg, creatinineMgDl: Math.round(cr * 100) / 100 });
}
