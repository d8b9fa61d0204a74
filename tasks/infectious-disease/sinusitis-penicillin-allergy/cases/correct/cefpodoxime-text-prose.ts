// An ID physician who reaches for cefpodoxime after any amoxicillin history (its side chain is unlike amoxicillin's,
// AAAAI/ACAAI 2022) and writes the drug as text only, answering in a sentence.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { AllergyIntolerance } from '@medplum/fhirtypes';

export const description = 'text-only cefpodoxime 200 mg BID; prose "I would not prescribe amoxicillin"';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const allergies = await http.search<AllergyIntolerance>('AllergyIntolerance', { patient, 'clinical-status': 'active' });
  await http.search('Condition', { patient, 'clinical-status': 'active' });
  const amox = allergies.find((a) => /amoxicillin/i.test(JSON.stringify(a.code)))!;
  const what = (amox.reaction?.[0]?.manifestation?.[0]?.coding?.[0]?.display ?? 'a reaction').toLowerCase();
  if (allergies.some((a) => /cefpodoxime/i.test(JSON.stringify(a.code)))) throw new Error('would pick another drug');
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { text: 'cefpodoxime proxetil 200 mg tablet' },
    dosageInstruction: [{ text: 'Take 200 mg by mouth every 12 hours for 7 days' }] });
  await submit(`I would not prescribe amoxicillin: the chart documents an amoxicillin allergy (${what}). I sent cefpodoxime 200 mg every 12 hours for 7 days instead; its side chain differs from amoxicillin's.`);
}
