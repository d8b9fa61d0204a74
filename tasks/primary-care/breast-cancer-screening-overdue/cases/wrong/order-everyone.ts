// A care-gap bot: every woman gets a screening mammogram order and a templated note, whatever the chart says.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'orders a screening mammogram for every woman and calls it due';
export const catches = ['due_judgement', 'screening_order', 'screening_note'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search('Condition', { patient });
  await http.search('Procedure', { patient });
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', category: [{ coding: [{ system: 'http://snomed.info/sct', code: '363679005' }] }], code: { coding: [{ system: 'http://snomed.info/sct', code: '24623002', display: 'Screening mammography' }] }, subject: { reference: `Patient/${patient}` }, authoredOn: now });
  const text = 'Breast cancer screening: mammogram is due every 2 years. Screening mammogram ordered.';
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(JSON.stringify({ due: true, lastMammogram: null, ordered: 'screening mammogram' }));
}
