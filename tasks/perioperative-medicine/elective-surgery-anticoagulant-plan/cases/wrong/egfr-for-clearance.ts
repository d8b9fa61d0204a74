// Takes the laboratory's eGFR for the creatinine clearance: the 84-year-old of 55 kg has eGFR 54 but a
// Cockcroft-Gault clearance of 36, so dabigatran is held 2 days instead of 4 before her knee replacement.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation, ServiceRequest } from '@medplum/fhirtypes';

export const description = 'uses the lab eGFR as the CrCl (dabigatran held too briefly)';
export const catches = ['interruption_timing', 'creatinine_clearance'];
export const mustFail = 'some';

const iso = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 864e5).toISOString().slice(0, 10);

export default async function ({ http, patient, submit }: CaseContext): Promise<void> {
  await http.read('Patient', patient);
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const srs = await http.search<ServiceRequest>('ServiceRequest', { patient, status: 'active' });
  await http.search('Observation', { patient, code: 'http://loinc.org|2160-0' });
  await http.search('Observation', { patient, code: 'http://loinc.org|29463-7' });
  const egfr = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|98979-8', _sort: '-date', _count: 1 }))[0].valueQuantity!.value!;
  const conditions = await http.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  const drug = /warfarin|apixaban|rivaroxaban|edoxaban|dabigatran/i.exec(JSON.stringify(meds.map((m) => m.medicationCodeableConcept)))![0].toLowerCase();
  const surgery = srs.find((s) => s.occurrenceDateTime)!;
  const date = surgery.occurrenceDateTime!.slice(0, 10);
  const high = /knee|hip/i.test(JSON.stringify(surgery.code));
  const hold = drug === 'warfarin' ? 5 : drug === 'dabigatran' && egfr < 50 ? (high ? 4 : 2) : (high ? 2 : 1);
  const last = iso(date, -(hold + 1));
  const bridging = drug === 'warfarin' && conditions.some((c) => /mechanical mitral/i.test(c.code?.text ?? ''));
  if (bridging) {
    await http.create<MedicationRequest>({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
      medicationCodeableConcept: { text: 'enoxaparin 90 mg SC q12h' }, dosageInstruction: [{ text: '90 mg subcutaneously every 12 hours', doseAndRate: [{ doseQuantity: { value: 90, unit: 'mg' } }] }] });
  }
  if (drug === 'warfarin') {
    await http.create<ServiceRequest>({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
      code: { text: 'INR' }, occurrenceDateTime: iso(date, -1) });
  }
  const note = `Last dose of ${drug} ${last}. ${bridging ? 'Bridge with enoxaparin.' : 'No bridging.'} Resume after surgery.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ crClMlMin: egfr, lastDoseDate: last, bridging });
}
