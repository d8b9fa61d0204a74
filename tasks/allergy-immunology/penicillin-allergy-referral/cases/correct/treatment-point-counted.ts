// Scores PEN-FAST counting the treatment point (assumes the hives were treated with an antihistamine and the
// anaphylaxis with epinephrine), calls the reaction by its usual name, and refers with a coded referral category.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { AllergyIntolerance } from '@medplum/fhirtypes';

export const description = 'PEN-FAST with the treatment point; coded referral with reason text';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const allergy = (await http.search<AllergyIntolerance>('AllergyIntolerance', { patient, code: 'http://www.nlm.nih.gov/research/umls/rxnorm|723' }))[0];
  await http.search('MedicationRequest', { patient, _count: 50 });
  const text = JSON.stringify(allergy.reaction ?? []).toLowerCase();
  const anaphylaxis = /anaphyla|angioedema/.test(text);
  const years = Math.floor((Date.parse(now) - Date.parse(allergy.onsetDateTime!)) / 31557600000);
  const penFast = (years <= 5 ? 2 : 0) + (anaphylaxis ? 2 : 0) + 1;
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'routine', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '386053000' }] }],
    code: { coding: [{ system: 'http://snomed.info/sct', code: '3457005', display: 'Patient referral' }] },
    performerType: { coding: [{ system: 'http://snomed.info/sct', code: '408439002', display: 'Allergy - specialty' }] },
    reasonCode: [{ text: `Beta-lactam allergy label (amoxicillin), PEN-FAST ${penFast}: evaluate for delabeling` }] });
  await submit({ reaction: anaphylaxis ? 'anaphylactic reaction' : 'urticarial rash (hives)', yearsSinceReaction: years, penFast, lowRisk: penFast < 3 });
}
