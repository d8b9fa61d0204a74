// Declines on every chart with a template that assumes the patient is already on tiotropium.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Procedure } from '@medplum/fhirtypes';

export const description = 'declines on every chart ("already on tiotropium")';
export const catches = ['lama_decision', 'answer_states_therapy', 'note_documents_therapy'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search('MedicationRequest', { patient, status: 'active' });
  const spiro = (await http.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|127783003' }))
    .filter((p) => /FEV1\/FVC/.test(JSON.stringify(p.note ?? []))).sort((a, b) => (b.performedDateTime ?? '').localeCompare(a.performedDateTime ?? ''))[0]!;
  const subject = { reference: `Patient/${patient}` };
  const text = `COPD. ${(spiro.note ?? []).map((n) => n.text).join(' ')}. Patient is already on tiotropium; a new order would duplicate it. Not ordered.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit('Not ordered: the patient is already on tiotropium (duplicate).');
}
