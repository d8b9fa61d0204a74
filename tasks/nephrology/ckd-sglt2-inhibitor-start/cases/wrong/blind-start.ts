// Never opens the chart: starts empagliflozin 10 mg, orders a UACR and files a template note on every patient.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'reads nothing; starts empagliflozin 10 mg and a UACR with a template note';
export const catches = ['reviewed_kidney_labs', 'sglt2_decision', 'note_covers_key_facts'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.create({
    resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1545653', display: 'empagliflozin' }] },
    dosageInstruction: [{ text: '10 mg by mouth once daily', doseAndRate: [{ doseQuantity: { value: 10, unit: 'mg' } }] }],
  });
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, code: { coding: [{ system: 'http://loinc.org', code: '14959-1' }] } });
  const note = 'CKD on RAAS blockade: SGLT2 inhibitor indicated. Started empagliflozin 10 mg daily. UACR ordered.';
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit('Yes: started empagliflozin 10 mg daily; UACR ordered.');
}
