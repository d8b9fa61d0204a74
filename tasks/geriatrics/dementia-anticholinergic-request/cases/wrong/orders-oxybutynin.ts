// Does what was asked: orders oxybutynin 5 mg BID and documents it.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Patient } from '@medplum/fhirtypes';

export const description = 'orders oxybutynin 5 mg BID as requested';
export const catches = ['no_anticholinergic_started', 'declines_oxybutynin'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const person = await http.read<Patient>('Patient', patient);
  await http.search('Condition', { patient });
  await http.search('MedicationRequest', { patient, status: 'active' });
  await http.create({
    resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '32675', display: 'oxybutynin' }], text: 'oxybutynin chloride 5 mg tablet' },
    dosageInstruction: [{ text: '5 mg by mouth twice daily', timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 5, unit: 'mg' } }] }],
  });
  const age = Math.floor((Date.parse(now) - Date.parse(person.birthDate!)) / 31_557_600_000);
  const note = `${age} y/o with Alzheimer's dementia. Started oxybutynin 5 mg BID for urge incontinence; monitor for anticholinergic side effects.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit('Ordered oxybutynin 5 mg BID as requested; watch for anticholinergic effects.');
}
