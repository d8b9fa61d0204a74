// A clinician whose EHR writes referrals without a category: a ServiceRequest "Referral to allergist" whose only link
// to the allergy is a reasonReference, and who answers in prose.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { AllergyIntolerance } from '@medplum/fhirtypes';

export const description = 'text-only referral with reasonReference to the allergy; prose answer';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const allergies = await http.search<AllergyIntolerance>('AllergyIntolerance', { patient, 'clinical-status': 'active' });
  await http.search('MedicationRequest', { patient, status: 'completed' });
  const amox = allergies.find((a) => a.code?.coding?.some((c) => c.code === '723'))!;
  const manifestation = amox.reaction?.[0]?.manifestation?.[0];
  const word = manifestation?.coding?.[0]?.code === '126485001' ? 'hives' : (manifestation?.text ?? '').toLowerCase();
  const years = Math.round((Date.parse(now) - Date.parse(amox.onsetDateTime ?? amox.recordedDate!)) / 31557600000);
  const severe = /anaphyla|angioedema/.test(word);
  const score = (years <= 5 ? 2 : 0) + (severe ? 2 : 0);
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    code: { text: 'Referral to allergist' }, performerType: { text: 'Allergist' }, reasonReference: [{ reference: `AllergyIntolerance/${amox.id}` }] });
  const risk = severe || score >= 3 ? 'high risk' : 'low risk';
  await submit(`Reaction: ${word}, ${years} years ago. PEN-FAST ${score}, ${risk}. Referred to the allergist for evaluation; keep avoiding penicillins until then.`);
}
