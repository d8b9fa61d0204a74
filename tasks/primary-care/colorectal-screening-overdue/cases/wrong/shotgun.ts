// Orders "everything" for colon cancer screening on every patient: a colonoscopy and a FIT, whatever the chart says.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'orders colonoscopy plus FIT for everyone and says due';
export const catches = ['single_screening_order', 'screening_order', 'due_judgement'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.read('Patient', patient);
  await http.search('Procedure', { patient });
  await http.search('Observation', { patient });
  for (const code of [{ system: 'http://snomed.info/sct', code: '73761001', display: 'Colonoscopy' }, { system: 'http://loinc.org', code: '29771-3', display: 'FIT' }]) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', code: { coding: [code] }, subject: { reference: `Patient/${patient}` }, authoredOn: now });
  }
  await submit(JSON.stringify({ due: true, ordered: 'colonoscopy and FIT' }));
}
