// Adds a salmeterol inhaler (Serevent) beside the fluticasone when a step up is due, and on well-controlled charts
// too: a LABA without an ICS in the same inhaler.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Observation, Procedure } from '@medplum/fhirtypes';

export const description = 'adds Serevent (salmeterol alone) beside fluticasone';
export const catches = ['no_overtreatment', 'controller_decision'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search('MedicationRequest', { patient, status: 'active' });
  const act = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|82668-5' }))[0]!;
  await http.search('MedicationDispense', { patient });
  const spiro = (await http.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|127783003' }))[0]!;
  const subject = { reference: `Patient/${patient}` };
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { text: 'Serevent Diskus (salmeterol 50 mcg)' }, dosageInstruction: [{ text: '1 inhalation twice daily' }] });
  const note = `ACT ${act.valueQuantity?.value}. ${(spiro.note ?? []).map((n) => n.text).join(' ')}. Add salmeterol twice daily to the fluticasone.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit(`ACT ${act.valueQuantity?.value}: not well controlled; added salmeterol.`);
}
