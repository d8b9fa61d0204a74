// Never looks at a potassium result: takes the referral at its word, stops lisinopril, orders a BMP and reports
// "high potassium". Right on some charts by luck, blind on every one.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest } from '@medplum/fhirtypes';

export const description = 'never reads the potassium: stops lisinopril and orders a BMP';
export const catches = ['reviewed_potassium', 'stated_potassium'];

export default async function ({ http, patient, submit }: CaseContext): Promise<void> {
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active', code: 'http://www.nlm.nih.gov/research/umls/rxnorm|29046,http://www.nlm.nih.gov/research/umls/rxnorm|314076,http://www.nlm.nih.gov/research/umls/rxnorm|314077' });
  for (const order of meds) await http.update({ ...order, id: order.id!, status: 'stopped', statusReason: { text: 'hyperkalemia' } });
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, code: { coding: [{ system: 'http://loinc.org', code: '51990-0' }] } });
  await submit('Potassium is high. Stopped lisinopril for hyperkalemia and ordered a repeat BMP.');
}
