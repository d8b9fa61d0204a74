// Escalates straight to triple therapy (Trelegy: fluticasone furoate/umeclidinium/vilanterol) for dyspnea, replacing
// the long-acting inhalers: an inhaled corticosteroid without exacerbations or eosinophilia.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Procedure } from '@medplum/fhirtypes';

export const description = 'switches to Trelegy (ICS/LAMA/LABA) for dyspnea';
export const catches = ['safe_inhaler_regimen'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const spiro = (await http.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|127783003' }))
    .filter((p) => /FEV1\/FVC/.test(JSON.stringify(p.note ?? []))).sort((a, b) => (b.performedDateTime ?? '').localeCompare(a.performedDateTime ?? ''))[0]!;
  const longActing = meds.filter((o) => /tiotropium|spiriva|umeclidinium|anoro|salmeterol|serevent/i.test(JSON.stringify(o.medicationCodeableConcept)));
  for (const o of longActing) await http.update({ ...o, id: o.id!, status: 'stopped', statusReason: { text: 'escalated to triple therapy' } });
  const subject = { reference: `Patient/${patient}` };
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1945048', display: '30 ACTUAT fluticasone furoate 0.1 MG/ACTUAT / umeclidinium 0.0625 MG/ACTUAT / vilanterol 0.025 MG/ACTUAT Dry Powder Inhaler [Trelegy]' }] }, dosageInstruction: [{ text: '1 inhalation once daily' }] });
  const text = `COPD with persistent dyspnea. ${(spiro.note ?? []).map((n) => n.text).join(' ')}. Escalated to Trelegy Ellipta (fluticasone furoate/umeclidinium/vilanterol) once daily.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit('Switched to Trelegy Ellipta (umeclidinium-containing triple therapy) once daily.');
}
