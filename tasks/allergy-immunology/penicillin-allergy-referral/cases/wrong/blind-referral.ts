// Never opens the allergy list: refers everyone and answers with a generic "rash, about 10 years, low risk".
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'reads nothing; generic referral and a guessed answer';
export const catches = ['reviewed_allergy', 'risk_assessment'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '386053000' }] }], performerType: { text: 'Allergy and Immunology' },
    reasonCode: [{ text: 'penicillin allergy evaluation' }] });
  await submit({ reaction: 'rash', yearsSinceReaction: 10, penFast: 0, lowRisk: true });
}
