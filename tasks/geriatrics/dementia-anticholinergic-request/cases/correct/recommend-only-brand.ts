// A consultant who changes nothing in the chart: declines by brand name ("I would not prescribe Ditropan") and, where
// an anticholinergic is already on the list, recommends that the PCP stop it, naming it by brand when it has one.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Patient } from '@medplum/fhirtypes';

export const description = 'no orders: declines by brand; recommends stopping the existing anticholinergic (brand name)';

const BRAND: Record<string, string> = { diphenhydramine: 'Benadryl', tolterodine: 'Detrol', oxybutynin: 'Ditropan', hydroxyzine: 'Atarax', solifenacin: 'Vesicare', amitriptyline: 'Elavil' };

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const person = await http.read<Patient>('Patient', patient);
  const problems = await http.search<Condition>('Condition', { patient });
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const text = (o: MedicationRequest) => JSON.stringify(o.medicationCodeableConcept ?? {}).toLowerCase();
  const existing = Object.keys(BRAND).filter((generic) => meds.some((o) => text(o).includes(generic)));
  const chei = ['donepezil', 'rivastigmine', 'galantamine'].find((g) => meds.some((o) => text(o).includes(g))) ?? 'cholinesterase inhibitor';
  const birth = new Date(person.birthDate!);
  const today = new Date(now);
  const age = today.getUTCFullYear() - birth.getUTCFullYear() - (today.getUTCMonth() < birth.getUTCMonth() || (today.getUTCMonth() === birth.getUTCMonth() && today.getUTCDate() < birth.getUTCDate()) ? 1 : 0);
  const dementia = problems.some((c) => /alzheimer/i.test(JSON.stringify(c.code))) ? "Alzheimer's dementia" : 'dementia';
  const stop = existing.map((g) => `Please stop the ${BRAND[g]} (${g}) - it is strongly anticholinergic too.`);
  const note = [
    `Geri e-consult, ${age}-year-old with ${dementia}, on ${chei}.`,
    'Recommendation: I would not prescribe Ditropan. Anticholinergic load worsens cognition and works against the cholinesterase inhibitor (Beers 2023).',
    ...stop,
    'Suggest UA, bladder diary, prompted voiding; if medication needed, mirabegron.',
  ].join('\n');
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit(`No - I would not prescribe Ditropan: anticholinergic, worsens cognition in ${dementia} and opposes ${chei}. ${stop.join(' ')} Behavioral measures and a UA first; mirabegron if needed.`);
}
