// Never opens the imaging: a template note and a 6-month CT for everyone.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'reads nothing; template CT at 6 months';
export const catches = ['reviewed_imaging', 'reviewed_eligibility_and_risk'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const d = new Date(now);
  d.setUTCMonth(d.getUTCMonth() + 6);
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, code: { text: 'CT chest without contrast' }, occurrenceDateTime: d.toISOString().slice(0, 10) });
  const plan = 'Per Fleischner: solid nodule, CT chest in 6-12 months.';
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`Nodule 7 mm solid nodule. ${plan}`).toString('base64') } }] });
  await submit({ noduleSizeMm: 7, noduleType: 'solid', recommendation: plan });
}
