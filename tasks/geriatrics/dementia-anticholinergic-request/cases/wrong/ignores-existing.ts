// Declines oxybutynin well, but never looks at what the patient already takes: a nightly diphenhydramine or an
// urgent-care tolterodine stays on the list unmentioned.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Patient } from '@medplum/fhirtypes';

export const description = 'declines oxybutynin; leaves an existing anticholinergic on the list, unmentioned';
export const catches = ['deprescribes_existing_anticholinergic'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const person = await http.read<Patient>('Patient', patient);
  const problems = await http.search<Condition>('Condition', { patient });
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const chei = ['donepezil', 'rivastigmine', 'galantamine'].find((g) => meds.some((o) => JSON.stringify(o.medicationCodeableConcept).toLowerCase().includes(g)));
  const dx = problems.some((c) => /alzheimer/i.test(JSON.stringify(c.code))) ? "Alzheimer's disease" : 'dementia';
  const age = Math.floor((Date.parse(now) - Date.parse(person.birthDate!)) / 31_557_600_000);
  const note = `${age}-year-old with ${dx} on ${chei}. Oxybutynin not recommended: strongly anticholinergic, worsens cognition and opposes ${chei} (Beers 2023). Behavioural measures, UA; mirabegron if needed.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit(`Oxybutynin not recommended - strongly anticholinergic in ${dx} on ${chei}. Try behavioural measures and a UA; mirabegron if a drug is needed.`);
}
