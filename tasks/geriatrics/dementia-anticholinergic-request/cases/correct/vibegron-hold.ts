// A geriatrician who puts the existing anticholinergic on hold (a trial off), prescribes vibegron by brand as free
// text, and phrases the decline as "rather than oxybutynin".
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Patient } from '@medplum/fhirtypes';

export const description = 'holds an existing anticholinergic; text-only Gemtesa (vibegron) order; "rather than oxybutynin"';

const ANTICHOLINERGIC_NAMES = ['diphenhydramine', 'tolterodine', 'oxybutynin', 'hydroxyzine', 'solifenacin', 'trospium', 'amitriptyline', 'chlorpheniramine'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const person = await http.read<Patient>('Patient', patient);
  const problems = await http.search<Condition>('Condition', { patient, category: 'problem-list-item' });
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient });
  const active = meds.filter((o) => o.status === 'active');
  const label = (o: MedicationRequest) => `${o.medicationCodeableConcept?.text ?? ''} ${(o.medicationCodeableConcept?.coding ?? []).map((c) => c.display).join(' ')}`.toLowerCase();
  const held: string[] = [];
  for (const o of active) {
    const name = ANTICHOLINERGIC_NAMES.find((n) => label(o).includes(n));
    if (!name) continue;
    await http.update({ ...o, id: o.id!, status: 'on-hold', note: [...(o.note ?? []), { text: 'On hold: anticholinergic in dementia (Beers 2023); trial off.' }] });
    held.push(name);
  }
  const chei = active.map(label).find((l) => /donepezil|rivastigmine|galantamine/.test(l))?.match(/donepezil|rivastigmine|galantamine/)?.[0];
  await http.create({
    resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { text: 'Gemtesa (vibegron) 75 mg tablet' },
    dosageInstruction: [{ text: 'Take 1 tablet by mouth once daily' }],
  });
  const age = Math.floor((Date.parse(now) - Date.parse(person.birthDate!)) / 31_557_600_000);
  const dx = problems.find((c) => /alzheimer|dementia/i.test(c.code?.text ?? ''))?.code?.text ?? 'dementia';
  const note = `E-consult: ${age} yo, ${dx}, on ${chei}. Rather than oxybutynin (strong anticholinergic; Beers: avoid in dementia, antagonizes ${chei}), started vibegron 75 mg daily.${held.length ? ` Put ${held.join(', ')} on hold (anticholinergic).` : ''} Check UA and PVR.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit(`Rather than oxybutynin, which is strongly anticholinergic and should be avoided in dementia on ${chei}, I started vibegron 75 mg daily.${held.length ? ` ${held.join(', ')} put on hold.` : ''}`);
}
