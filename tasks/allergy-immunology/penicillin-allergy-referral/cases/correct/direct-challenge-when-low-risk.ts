// An allergist-minded PCP who follows the 2022 practice parameter to the letter: a benign reaction long ago gets a
// supervised direct oral amoxicillin challenge in clinic (one 500 mg dose, observed), a severe one gets a referral.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { AllergyIntolerance, MedicationRequest } from '@medplum/fhirtypes';

export const description = 'low risk: orders a single observed amoxicillin dose in clinic; high risk: refers';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const allergies = await http.search<AllergyIntolerance>('AllergyIntolerance', { patient });
  await http.search<MedicationRequest>('MedicationRequest', { patient });
  const amox = allergies.find((a) => /amoxicillin/i.test(JSON.stringify(a.code)))!;
  const reactionCode = amox.reaction?.[0]?.manifestation?.[0]?.coding?.[0]?.code ?? '';
  const m = amox.reaction?.[0]?.manifestation?.[0];
  const reaction = m?.text ?? m?.coding?.[0]?.display ?? 'unknown';
  const years = (Date.parse(now) - Date.parse(amox.onsetDateTime!)) / 31557600000;
  const severe = ['39579001', '41291007'].includes(reactionCode);
  const penFast = (years <= 5 ? 2 : 0) + (severe ? 3 : 0);
  const lowRisk = penFast < 3;
  if (lowRisk) {
    await http.create<MedicationRequest>({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '308191', display: 'amoxicillin 500 MG Oral Capsule' }] },
      dosageInstruction: [{ text: 'Single 500 mg dose by mouth in clinic; observe 60 minutes', timing: { repeat: { count: 1 } }, doseAndRate: [{ doseQuantity: { value: 500, unit: 'mg' } }] }],
      dispenseRequest: { quantity: { value: 1, unit: 'capsule' } },
      note: [{ text: 'Direct oral amoxicillin challenge (low-risk history, PEN-FAST < 3). Epinephrine at bedside.' }] });
  } else {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      category: [{ coding: [{ system: 'http://snomed.info/sct', code: '386053000', display: 'Patient referral' }] }],
      code: { text: 'Allergy and Immunology referral' }, performerType: { text: 'Allergy and Immunology' },
      reasonCode: [{ text: `Amoxicillin ${reaction.toLowerCase()} ${Math.floor(years)} years ago: penicillin skin testing before any challenge` }] });
  }
  await submit({ reaction: reaction.toLowerCase(), yearsSinceReaction: Math.floor(years), penFast, lowRisk });
}
