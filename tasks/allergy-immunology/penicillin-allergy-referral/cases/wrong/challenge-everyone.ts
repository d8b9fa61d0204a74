// Applies "direct oral challenge" to every amoxicillin label, anaphylaxis included: the parameter reserves it for
// low-risk histories; a severe reaction needs skin testing by an allergist first.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { AllergyIntolerance } from '@medplum/fhirtypes';

export const description = 'direct oral amoxicillin challenge for every history';
export const catches = ['no_penicillin_outside_evaluation', 'evaluation_arranged', 'risk_assessment'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const allergy = (await http.search<AllergyIntolerance>('AllergyIntolerance', { patient, code: 'http://www.nlm.nih.gov/research/umls/rxnorm|723' }))[0];
  await http.search('MedicationRequest', { patient });
  const severe = /anaphyla|angioedema/i.test(JSON.stringify(allergy.reaction));
  const years = Math.floor((Date.parse(now) - Date.parse(allergy.onsetDateTime!)) / 31557600000);
  const penFast = (years <= 5 ? 2 : 0) + (severe ? 2 : 0);
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '723', display: 'amoxicillin' }] },
    dosageInstruction: [{ text: 'amoxicillin 500 mg once in clinic (direct oral challenge), observe 1 hour', timing: { repeat: { count: 1 } } }] });
  await submit({ reaction: String(allergy.reaction?.[0]?.manifestation?.[0]?.text), yearsSinceReaction: years, penFast, lowRisk: true });
}
