// Bridges every warfarin interruption with enoxaparin, AF included (the pre-BRIDGE habit); DOACs handled right.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation, Patient, ServiceRequest } from '@medplum/fhirtypes';

export const description = 'bridges every warfarin patient (AF too)';
export const catches = ['bridging_decision'];
export const mustFail = 'some';

const iso = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 864e5).toISOString().slice(0, 10);

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const srs = await http.search<ServiceRequest>('ServiceRequest', { patient, status: 'active' });
  const cr = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2160-0', _sort: '-date', _count: 1 }))[0].valueQuantity!.value!;
  const kg = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|29463-7', _sort: '-date', _count: 1 }))[0].valueQuantity!.value!;
  await http.search('Condition', { patient });
  const age = Math.floor((Date.parse(now) - Date.parse(p.birthDate!)) / 31557600000);
  const crcl = Math.round(((140 - age) * kg) / (72 * cr) * (p.gender === 'female' ? 0.85 : 1));
  const drug = /warfarin|apixaban|rivaroxaban|edoxaban|dabigatran/i.exec(JSON.stringify(meds.map((m) => m.medicationCodeableConcept)))![0].toLowerCase();
  const surgery = srs.find((s) => s.occurrenceDateTime)!;
  const date = surgery.occurrenceDateTime!.slice(0, 10);
  const high = /knee|hip/i.test(JSON.stringify(surgery.code));
  const hold = drug === 'warfarin' ? 5 : drug === 'dabigatran' && crcl < 50 ? (high ? 4 : 2) : (high ? 2 : 1);
  const last = iso(date, -(hold + 1));
  const bridging = drug === 'warfarin';
  if (bridging) {
    await http.create<MedicationRequest>({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '67108', display: 'enoxaparin' }] },
      dosageInstruction: [{ timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: Math.round(kg), unit: 'mg' } }] }] });
    await http.create<ServiceRequest>({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
      code: { coding: [{ system: 'http://loinc.org', code: '6301-6' }] }, occurrenceDateTime: iso(date, -1) });
  }
  const note = `Last dose of ${drug} ${last}. ${bridging ? 'Bridge with enoxaparin 1 mg/kg q12h.' : 'No bridging.'} Resume after surgery.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ crClMlMin: crcl, lastDoseDate: last, bridging });
}
