// A pharmacist who changes the dose of the existing order (same resource, status kept active) to the label dose in
// mg, coded as the apixaban ingredient, with frequency as timing.repeat, and answers in JSON with the dose as text.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'PUTs the same order with the label dose in mg; JSON answer with text dose';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  const active = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const last = async (code: string) => (await http.search<Observation>('Observation', { patient, code: `http://loinc.org|${code}`, _sort: '-date' }))
    .sort((a, b) => Date.parse(b.effectiveDateTime!) - Date.parse(a.effectiveDateTime!))[0].valueQuantity!;
  const kg = (await last('29463-7')).value!;
  const c = await last('2160-0');
  const cr = (c.code ?? c.unit) === 'umol/L' ? c.value! / 88.42 : c.value!;
  const age = Math.floor((Date.parse(now) - Date.parse(p.birthDate!)) / 31557600000);
  const met = Number(age >= 80) + Number(kg <= 60) + Number(cr >= 1.5);
  const label = met >= 2 ? 2.5 : 5;
  const order = active.find((m) => /apixaban|eliquis|1364430|136444|136443/i.test(JSON.stringify(m.medicationCodeableConcept)))!;
  const text = JSON.stringify(order.medicationCodeableConcept);
  const q = order.dosageInstruction?.[0]?.doseAndRate?.[0]?.doseQuantity;
  const current = q?.unit && /^m/i.test(q.unit) ? q.value! : /2\.5/.test(text) ? 2.5 : 5;
  if (current !== label) {
    await http.update<MedicationRequest>({ ...order, id: order.id!, medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1364430', display: 'apixaban' }] },
      dosageInstruction: [{ text: `${label} mg orally BID`, timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } }, route: { text: 'oral' },
        doseAndRate: [{ doseQuantity: { value: label, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }] }] });
  }
  const note = `Apixaban dose review: SCr ${cr.toFixed(2)} mg/dL, weight ${kg} kg, age ${age}; ${met}/3 criteria; ${current === label ? 'continue current dose' : `dose changed to ${label} mg BID`}.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ criteriaMet: met, doseAppropriate: current === label, recommendedDose: `${label} mg twice daily`, creatinineMgDl: Number(cr.toFixed(2)), weightKg: kg, ageYears: age });
}
