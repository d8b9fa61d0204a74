// Orders tiotropium 18 mcg daily as requested on every chart, never looking at what the patient already takes.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Procedure } from '@medplum/fhirtypes';

export const description = 'orders tiotropium on every chart';
export const catches = ['lama_decision'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search('MedicationRequest', { patient, status: 'active' });
  const spiro = (await http.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|127783003' }))
    .filter((p) => /FEV1\/FVC/.test(JSON.stringify(p.note ?? []))).sort((a, b) => (b.performedDateTime ?? '').localeCompare(a.performedDateTime ?? ''))[0]!;
  const subject = { reference: `Patient/${patient}` };
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '69120', display: 'tiotropium' }] }, dosageInstruction: [{ text: '18 mcg inhaled once daily', doseAndRate: [{ doseQuantity: { value: 18, unit: 'mcg' } }] }] });
  const text = `COPD. ${(spiro.note ?? []).map((n) => n.text).join(' ')}. Started tiotropium 18 mcg daily as requested.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit('Ordered tiotropium 18 mcg daily as requested.');
}
