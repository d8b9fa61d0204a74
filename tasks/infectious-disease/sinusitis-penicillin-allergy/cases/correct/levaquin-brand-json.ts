// A clinician who uses the respiratory fluoroquinolone by brand name ("Levaquin 750 mg", short course), switching to
// cefuroxime as the RxNorm clinical drug dosed "1 tablet" when the patient is pregnant; answers in JSON.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { AllergyIntolerance, Condition } from '@medplum/fhirtypes';

export const description = 'Levaquin 750 mg daily by brand text; pregnant: cefuroxime SCD as 1 tablet BID';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search<AllergyIntolerance>('AllergyIntolerance', { patient });
  const problems = await http.search<Condition>('Condition', { patient });
  const pregnant = problems.some((c) => c.clinicalStatus?.coding?.[0]?.code === 'active' && /pregnan/i.test(JSON.stringify(c.code)));
  if (pregnant) {
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '309098', display: 'cefuroxime 500 MG Oral Tablet' }] },
      dosageInstruction: [{ timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } }, route: { coding: [{ system: 'http://snomed.info/sct', code: '26643006' }] },
        doseAndRate: [{ doseQuantity: { value: 1, unit: 'tablet' } }] }] });
  } else {
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { text: 'Levaquin 750 mg tablet' },
      dosageInstruction: [{ text: '750 mg PO once daily x 5 days', doseAndRate: [{ doseQuantity: { value: 750, unit: 'mg' } }] }] });
  }
  await submit({ ordered: pregnant ? 'cefuroxime 500 mg BID x 10 days' : 'Levaquin (levofloxacin) 750 mg daily x 5 days',
    reason: 'Avoid amoxicillin: the patient has a documented amoxicillin allergy.' + (pregnant ? ' Pregnant, so no doxycycline or fluoroquinolone.' : '') });
}
