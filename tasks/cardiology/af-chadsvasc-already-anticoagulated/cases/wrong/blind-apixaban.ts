// Never opens the chart: every AF patient "needs" apixaban 5 mg twice daily and a CHA2DS2-VASc of 2 is assumed.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'reads nothing; orders apixaban 5 mg BID and reports a score of 2';
export const catches = ['reviewed_risk_factors', 'reviewed_medications', 'chadsvasc_score', 'anticoagulant_orders'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1364445', display: 'apixaban 5 MG Oral Tablet' }] },
    dosageInstruction: [{ text: '5 mg by mouth twice daily', doseAndRate: [{ doseQuantity: { value: 5, unit: 'mg' } }] }] });
  const note = 'AF: CHA2DS2-VASc 2. Anticoagulation recommended: apixaban 5 mg BID started.';
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ chadsvasc: 2, anticoagulate: true, anticoagulant: 'apixaban 5 mg BID' });
}
