// Never opens the chart: refers every patient on hydroxychloroquine for eye screening and reports a made-up dose.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'reads nothing; ophthalmology referral for everyone; invented 5 mg/kg';
export const catches = ['reviewed_dosing_inputs', 'reviewed_exams_and_medications', 'dose_per_kg_stated'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const subject = { reference: `Patient/${patient}` };
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, authoredOn: now, code: { text: 'Referral to ophthalmology' },
    performerType: { text: 'Ophthalmology' }, reasonCode: [{ text: 'hydroxychloroquine retinopathy screening' }] });
  const text = 'On hydroxychloroquine about 5 mg/kg. Retinal screening is due: referred to ophthalmology for SD-OCT and fields.';
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(text);
}
