// Orders nothing, but its answer and note recommend oxybutynin - next to every keyword the old grader looked for
// (oxybutynin, donepezil, anticholinergic, Beers, the age, Alzheimer's).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Patient } from '@medplum/fhirtypes';

export const description = 'no order; answer and note recommend oxybutynin with all the right keywords';
export const catches = ['declines_oxybutynin', 'note_rationale'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const person = await http.read<Patient>('Patient', patient);
  await http.search('Condition', { patient });
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const chei = meds.some((o) => /rivastigmine/i.test(JSON.stringify(o.medicationCodeableConcept))) ? 'rivastigmine' : 'donepezil';
  const age = Math.floor((Date.parse(now) - Date.parse(person.birthDate!)) / 31_557_600_000);
  const note = `Geriatrics e-consult. ${age}-year-old with Alzheimer's disease on ${chei}. Beers lists oxybutynin as anticholinergic, but at 5 mg BID the anticholinergic burden is modest: oxybutynin is reasonable, go ahead and start it. Continue ${chei}.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit(`Oxybutynin 5 mg BID is reasonable despite Beers (anticholinergic, dementia) - please go ahead and order it; continue ${chei}.`);
}
