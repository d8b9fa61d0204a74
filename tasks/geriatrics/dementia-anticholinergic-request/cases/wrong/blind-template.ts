// A template that never opens the chart: the right words about oxybutynin, nothing about this patient.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'never reads the chart; templated decline note';
export const catches = ['reviewed_medications', 'reviewed_dementia_diagnosis', 'note_patient_context'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const note = "Oxybutynin not recommended in Alzheimer's dementia: strongly anticholinergic (Beers 2023), opposes donepezil. Behavioural measures; mirabegron if needed.";
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit('Oxybutynin not recommended - strongly anticholinergic, avoid in dementia with donepezil (Beers 2023).');
}
