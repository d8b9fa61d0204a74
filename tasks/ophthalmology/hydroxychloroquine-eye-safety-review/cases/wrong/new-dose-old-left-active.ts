// Reads everything and decides right, but adds the lower dose without stopping the old order (two active
// hydroxychloroquine orders), and orders screening for everyone over 3 years "to be safe".
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation, Procedure } from '@medplum/fhirtypes';

export const description = 'lower dose added beside the old order; screening ordered from 3 years regardless of schedule';
export const catches = ['hydroxychloroquine_continued', 'dose_action', 'screening_action', 'review_note'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const orders = await http.search<MedicationRequest>('MedicationRequest', { patient });
  const hcq = orders.filter((o) => /hydroxychloroquine/i.test(o.medicationCodeableConcept?.text ?? ''));
  const active = hcq.find((o) => o.status === 'active')!;
  const kg = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|29463-7', _sort: '-date' }))[0].valueQuantity!.value!;
  await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|98979-8', _sort: '-date' });
  await http.search<Procedure>('Procedure', { patient });
  const d = active.dosageInstruction![0];
  const mg = d.doseAndRate![0].doseQuantity!.value! * (d.timing!.repeat!.frequency ?? 1);
  const years = (Date.parse(now) - Math.min(...hcq.map((o) => Date.parse(o.authoredOn!)))) / 31_557_600_000;
  const subject = { reference: `Patient/${patient}` };
  if (mg / kg > 5) await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { text: 'hydroxychloroquine 200 mg tablet' }, dosageInstruction: [{ text: '200 mg once daily' }] });
  if (years >= 3) await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, authoredOn: now, code: { text: 'SD-OCT and visual fields for hydroxychloroquine screening' } });
  const text = `${(mg / kg).toFixed(2)} mg/kg/day. ${years >= 3 ? 'Eye screening is due: SD-OCT and visual fields ordered.' : 'Eye screening not due.'}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(text);
}
