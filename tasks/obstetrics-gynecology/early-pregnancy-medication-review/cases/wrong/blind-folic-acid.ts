// Never opens the chart: folic acid 0.4 mg and a note declaring the list safe.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DocumentReference, MedicationRequest } from '@medplum/fhirtypes';

export const description = 'reads nothing; folic acid only; "all safe"';
export const catches = ['reviewed_medications', 'reviewed_pregnancy_context'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { text: 'folic acid 0.4 mg tablet' }, dosageInstruction: [{ text: '0.4 mg daily' }] } as MedicationRequest);
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from('Medications reviewed: compatible with pregnancy, continue. Folic acid started.').toString('base64') } }] } as DocumentReference);
  await submit('All compatible; folic acid 0.4 mg started.');
}
