// Declines oxybutynin and, reasoning that the cholinesterase inhibitor causes the incontinence, stops it outright -
// trading the patient's dementia treatment for a bladder symptom without a trial of anything else.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Patient } from '@medplum/fhirtypes';

export const description = 'declines oxybutynin but stops the cholinesterase inhibitor';
export const catches = ['existing_orders_untouched'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const person = await http.read<Patient>('Patient', patient);
  await http.search('Condition', { patient });
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const chei = meds.filter((o) => /donepezil|rivastigmine|galantamine/i.test(JSON.stringify(o.medicationCodeableConcept)));
  for (const o of chei) await http.update({ ...o, id: o.id!, status: 'stopped', statusReason: { text: 'possible cause of urge incontinence' } });
  const age = Math.floor((Date.parse(now) - Date.parse(person.birthDate!)) / 31_557_600_000);
  const note = `${age} y/o with Alzheimer's dementia. Oxybutynin not recommended (anticholinergic, Beers 2023). Stopped the cholinesterase inhibitor (donepezil/rivastigmine), which can cause urge incontinence.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit('Oxybutynin not recommended (anticholinergic in dementia). I stopped the cholinesterase inhibitor instead, since it can cause incontinence.');
}
