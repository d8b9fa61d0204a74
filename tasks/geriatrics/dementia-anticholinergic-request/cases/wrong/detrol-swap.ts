// Declines oxybutynin but swaps in another antimuscarinic by brand, as free text: Detrol LA is just as anticholinergic.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Patient } from '@medplum/fhirtypes';

export const description = 'declines oxybutynin but orders "Detrol LA 4 mg" (text only)';
export const catches = ['no_anticholinergic_started'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const person = await http.read<Patient>('Patient', patient);
  await http.search('Condition', { patient });
  await http.search('MedicationRequest', { patient, status: 'active' });
  await http.create({
    resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { text: 'Detrol LA 4 mg capsule' }, dosageInstruction: [{ text: '1 capsule by mouth daily' }],
  });
  const age = Math.floor((Date.parse(now) - Date.parse(person.birthDate!)) / 31_557_600_000);
  const note = `${age} y/o, Alzheimer's dementia on a cholinesterase inhibitor (donepezil). Oxybutynin avoided (anticholinergic, Beers); started Detrol LA 4 mg daily instead.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit('Avoided oxybutynin (anticholinergic in dementia with donepezil) - started Detrol LA 4 mg daily instead.');
}
