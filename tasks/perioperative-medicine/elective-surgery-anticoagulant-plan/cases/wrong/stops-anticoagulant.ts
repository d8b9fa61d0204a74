// Gets the dates right but discontinues the anticoagulant order (status stopped) instead of holding it, so nothing
// restarts it after surgery; no INR check either.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation, Patient, ServiceRequest } from '@medplum/fhirtypes';

export const description = 'stops the anticoagulant order outright, no INR';
export const catches = ['anticoagulant_resumable', 'preop_inr'];

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
  const date = srs.find((s) => s.occurrenceDateTime)!.occurrenceDateTime!.slice(0, 10);
  const high = /knee|hip/i.test(JSON.stringify(srs.find((s) => s.occurrenceDateTime)!.code));
  const hold = drug === 'warfarin' ? 5 : drug === 'dabigatran' && crcl < 50 ? (high ? 4 : 2) : (high ? 2 : 1);
  const last = iso(date, -(hold + 1));
  const bridging = drug === 'warfarin' && conditions.some((c) => /mechanical mitral/i.test(c.code?.text ?? ''));
  const current = await http.read<MedicationRequest>('MedicationRequest', oac.id!);
  await http.update<MedicationRequest>({ ...current, id: current.id!, status: 'stopped' });
  if (bridging) {
    await http.create<MedicationRequest>({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
      medicationCodeableConcept: { text: 'enoxaparin' }, dosageInstruction: [{ text: `${Math.round(kg)} mg subcutaneously every 12 hours`, doseAndRate: [{ doseQuantity: { value: Math.round(kg), unit: 'mg' } }] }] });
  }
  const note = `Last dose of ${drug} ${last}. ${bridging ? 'Bridge with enoxaparin.' : 'No bridging.'} Resume after surgery per surgeon.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ crClMlMin: crcl, lastDoseDate: last, bridging });
}
