// A clinician who prefers doxycycline (200 mg once daily) when nothing rules it out, moxifloxacin (SCD, 1 tablet)
// when doxycycline is on the allergy list, and in pregnancy cefpodoxime plus clindamycin (IDSA 2012 combination).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { AllergyIntolerance, Condition } from '@medplum/fhirtypes';

export const description = 'doxycycline 200 mg daily / moxifloxacin / cefpodoxime + clindamycin in pregnancy';

const RX = 'http://www.nlm.nih.gov/research/umls/rxnorm';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const allergies = await http.search<AllergyIntolerance>('AllergyIntolerance', { patient, 'clinical-status': 'active' });
  const pregnant = (await http.search<Condition>('Condition', { patient, code: 'http://snomed.info/sct|77386006', 'clinical-status': 'active' })).length > 0;
  const doxyAllergy = allergies.some((a) => /doxycycline|3640/i.test(JSON.stringify(a.code)));
  const order = (medicationCodeableConcept: object, dosage: object) => http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order',
    subject: { reference: `Patient/${patient}` }, authoredOn: now, medicationCodeableConcept, dosageInstruction: [dosage] });
  let what: string;
  if (pregnant) {
    await order({ coding: [{ system: RX, code: '20489', display: 'cefpodoxime' }] }, { text: '200 mg orally twice daily x 10 days', doseAndRate: [{ doseQuantity: { value: 200, unit: 'mg' } }] });
    await order({ coding: [{ system: RX, code: '2582', display: 'clindamycin' }] }, { text: '300 mg orally three times daily x 10 days', doseAndRate: [{ doseQuantity: { value: 300, unit: 'mg' } }] });
    what = 'cefpodoxime 200 mg BID plus clindamycin 300 mg TID';
  } else if (doxyAllergy) {
    await order({ coding: [{ system: RX, code: '311787', display: 'moxifloxacin 400 MG Oral Tablet' }] },
      { text: '1 tablet by mouth daily for 7 days', doseAndRate: [{ doseQuantity: { value: 1, unit: 'tablet' } }] });
    what = 'moxifloxacin 400 mg daily';
  } else {
    await order({ coding: [{ system: RX, code: '3640', display: 'doxycycline' }] }, { text: 'doxycycline 200 mg by mouth once daily for 7 days', route: { text: 'PO' } });
    what = 'doxycycline 200 mg once daily';
  }
  await submit(`Not amoxicillin - recorded amoxicillin allergy. Ordered ${what} (IDSA 2012 options for penicillin allergy).`);
}
