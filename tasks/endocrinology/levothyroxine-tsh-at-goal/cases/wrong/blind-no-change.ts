// Never opens the chart: answers "no change" with a made-up TSH and writes a boilerplate note.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'blind agent: no chart reading, boilerplate "TSH normal, no change"';
export const catches = ['reviewed_tsh', 'reviewed_levothyroxine_order', 'stated_tsh_and_dose'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.create({
    resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from('Levothyroxine: TSH 2.0, normal. No change.').toString('base64') } }],
  });
  await submit({ tsh: 2.0, tshDate: now.slice(0, 10), increaseDose: false, currentDoseMcg: 100 });
}
