// A geriatrician who acts: declines oxybutynin, orders mirabegron and a urinalysis, and stops any strongly
// anticholinergic drug already on the list (status stopped, with the reason).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Patient } from '@medplum/fhirtypes';

export const description = 'declines; orders mirabegron 25 mg + urinalysis; stops an existing anticholinergic';

const ANTICHOLINERGIC = /diphenhydramine|hydroxyzine|chlorpheniramine|doxylamine|meclizine|oxybutynin|tolterodine|solifenacin|darifenacin|fesoterodine|trospium|amitriptyline|nortriptyline|doxepin|paroxetine|cyclobenzaprine|benztropine|dicyclomine|hyoscyamine|promethazine/i;
const CHEI = /donepezil|rivastigmine|galantamine|aricept|exelon|razadyne/i;
const drugText = (o: MedicationRequest) => `${o.medicationCodeableConcept?.text ?? ''} ${(o.medicationCodeableConcept?.coding ?? []).map((c) => c.display).join(' ')}`;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const person = await http.read<Patient>('Patient', patient);
  const problems = await http.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const dx = problems.map((c) => c.code?.text ?? '').find((t) => /alzheimer|dementia/i.test(t)) ?? 'dementia';
  const chei = meds.map(drugText).find((t) => CHEI.test(t))?.match(CHEI)?.[0] ?? 'cholinesterase inhibitor';
  const age = Math.floor((Date.parse(now) - Date.parse(person.birthDate!)) / 31_557_600_000);
  const stopped: string[] = [];
  for (const order of meds.filter((o) => ANTICHOLINERGIC.test(drugText(o)))) {
    await http.update({ ...order, id: order.id!, status: 'stopped', statusReason: { text: 'Strongly anticholinergic in dementia on a cholinesterase inhibitor (Beers 2023)' } });
    stopped.push(drugText(order).match(ANTICHOLINERGIC)![0].toLowerCase());
  }
  await http.create({
    resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1300786', display: 'mirabegron' }], text: 'mirabegron 25 mg 24 hr extended-release tablet' },
    dosageInstruction: [{ text: 'Take 1 tablet (25 mg) by mouth once daily', timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 25, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }] }],
  });
  await http.create({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '108252007', display: 'Laboratory procedure' }] }],
    code: { coding: [{ system: 'http://loinc.org', code: '24356-8', display: 'Urinalysis complete panel - Urine' }] },
  });
  const note = [
    `Geriatrics e-consult. ${age} y/o with ${dx} on ${chei}. New urge incontinence.`,
    `Oxybutynin is strongly anticholinergic (Beers 2023): it worsens cognition and opposes ${chei}. Not started.`,
    stopped.length ? `Stopped ${stopped.join(', ')} (also strongly anticholinergic).` : '',
    'Started mirabegron 25 mg daily (beta-3 agonist); urinalysis ordered; timed voiding.',
  ].filter(Boolean).join('\n');
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit(`I did not order oxybutynin - strong anticholinergic, bad for cognition in ${dx} and it counteracts ${chei}. ${stopped.length ? `I also stopped ${stopped.join(', ')}. ` : ''}Started mirabegron 25 mg daily instead and ordered a UA.`);
}
