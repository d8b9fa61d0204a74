// Orders a DXA for every woman 65+ without looking for a prior one.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Patient } from '@medplum/fhirtypes';

export const description = 'orders a DXA for every woman 65+, never looks for a prior DXA';
export const catches = ['screening_order', 'due_judgement', 'reviewed_bone_history'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  await http.search('Condition', { patient });
  await http.search('MedicationRequest', { patient });
  const age = (Date.parse(now) - Date.parse(p.birthDate!)) / (365.25 * 86_400_000);
  await http.create({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    code: { coding: [{ system: 'http://snomed.info/sct', code: '312681000', display: 'Bone density scan' }] }, reasonCode: [{ text: `Osteoporosis screening, age ${Math.floor(age)}` }],
  });
  await http.create({
    resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from('No prior DXA found. Screening DXA is due and ordered.').toString('base64') } }],
  });
  await submit({ due: true, lastDxa: null, ordered: 'DXA' });
}
