// Reads the chart but "treats hard": high-dose Advair 500/50 plus montelukast plus a 5-day prednisone burst, on every chart.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation, Procedure } from '@medplum/fhirtypes';

export const description = 'Advair 500/50 + montelukast + prednisone burst';
export const catches = ['no_overtreatment'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const act = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|82668-5' }))[0];
  await http.search('MedicationDispense', { patient });
  const spiro = (await http.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|127783003' }))[0];
  const subject = { reference: `Patient/${patient}` };
  for (const o of meds.filter((m) => /fluticasone/i.test(JSON.stringify(m.medicationCodeableConcept)))) await http.update({ ...o, id: o.id!, status: 'stopped', statusReason: { text: 'step up' } });
  const add = (text: string, sig: string) => http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { text }, dosageInstruction: [{ text: sig }] });
  await add('Advair Diskus 500/50', '1 inhalation twice daily');
  await add('montelukast 10 mg tablet', '10 mg by mouth at bedtime');
  await add('prednisone 40 mg', '40 mg by mouth daily for 5 days');
  const note = `ACT ${act?.valueQuantity?.value}. ${(spiro?.note ?? []).map((n) => n.text).join(' ')}. Start Advair 500/50 BID, montelukast 10 mg nightly and a prednisone burst.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit('Not well controlled: Advair 500/50, montelukast and a prednisone burst started.');
}
