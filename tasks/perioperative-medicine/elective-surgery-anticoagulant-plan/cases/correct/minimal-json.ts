// The shortest passing plan: six reads (patient, active orders, surgical order, creatinine, weight, problem list),
// Cockcroft-Gault, the hold from the drug, bleeding risk and CrCl; enoxaparin 1 mg/kg q12h only for a mechanical
// mitral valve on warfarin; INR the day before surgery on warfarin; a short note; JSON.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation, Patient, ServiceRequest } from '@medplum/fhirtypes';

export const description = 'six reads, JSON answer, enoxaparin 1 mg/kg q12h coded by ingredient, INR LOINC 6301-6';

const iso = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 864e5).toISOString().slice(0, 10);

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const srs = await http.search<ServiceRequest>('ServiceRequest', { patient, status: 'active' });
  const cr = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2160-0', _sort: '-date', _count: 1 }))[0].valueQuantity!.value!;
  const kg = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|29463-7', _sort: '-date', _count: 1 }))[0].valueQuantity!.value!;
  const conditions = await http.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  const age = Math.floor((Date.parse(now) - Date.parse(p.birthDate!)) / 31557600000);
  const crcl = Math.round(((140 - age) * kg) / (72 * cr) * (p.gender === 'female' ? 0.85 : 1));
  const oac = meds.find((m) => /warfarin|apixaban|rivaroxaban|edoxaban|dabigatran/i.test(JSON.stringify(m.medicationCodeableConcept)))!;
  const drug = /warfarin|apixaban|rivaroxaban|edoxaban|dabigatran/i.exec(JSON.stringify(oac.medicationCodeableConcept))![0].toLowerCase();
  const surgery = srs.find((s) => /knee|hip|hernia|cholecyst/i.test(JSON.stringify(s.code)))!;
  const date = surgery.occurrenceDateTime!.slice(0, 10);
  const high = /knee|hip/i.test(JSON.stringify(surgery.code));
  const hold = drug === 'warfarin' ? 5 : drug === 'dabigatran' ? (crcl >= 50 ? (high ? 2 : 1) : (high ? 4 : 2)) : (high ? 2 : 1);
  const last = iso(date, -(hold + 1));
  const valve = conditions.some((c) => /mechanical mitral/i.test(c.code?.text ?? ''));
  const bridging = drug === 'warfarin' && valve;
  if (bridging) {
    await http.create<MedicationRequest>({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '67108', display: 'enoxaparin' }] },
      dosageInstruction: [{ timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: kg, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }] }] });
  }
  if (drug === 'warfarin') {
    await http.create<ServiceRequest>({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
      code: { coding: [{ system: 'http://loinc.org', code: '6301-6' }] }, occurrenceDateTime: iso(date, -1) });
  }
  const note = `Peri-op plan: last dose of ${drug} ${last}. ${bridging ? `Bridge with enoxaparin ${kg} mg q12h from ${iso(date, -3)}, last dose 24 h pre-op.` : 'No bridging.'} ${drug === 'warfarin' ? `INR on ${iso(date, -1)}.` : ''} Resume after surgery when hemostasis allows.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ crClMlMin: crcl, lastDoseDate: last, bridging });
}
