// One rule for every anticoagulant: stop 5 days before, no bridging, INR for everyone (DOACs held far longer than
// needed; the mechanical mitral valve left unbridged).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { ServiceRequest } from '@medplum/fhirtypes';

export const description = 'holds every drug 5 days, never bridges';
export const catches = ['interruption_timing', 'bridging_decision'];
export const mustFail = 'some';

const iso = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 864e5).toISOString().slice(0, 10);

export default async function ({ http, patient, submit }: CaseContext): Promise<void> {
  await http.read('Patient', patient);
  await http.search('MedicationRequest', { patient, status: 'active' });
  const srs = await http.search<ServiceRequest>('ServiceRequest', { patient, status: 'active' });
  const date = srs.find((s) => s.occurrenceDateTime)!.occurrenceDateTime!.slice(0, 10);
  const last = iso(date, -6);
  await http.create<ServiceRequest>({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
    code: { coding: [{ system: 'http://loinc.org', code: '6301-6' }] }, occurrenceDateTime: iso(date, -1) });
  const note = `Stop the anticoagulant 5 days before surgery (last dose ${last}); no bridging. INR the day before. Resume after surgery.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ crClMlMin: 60, lastDoseDate: last, bridging: false });
}
