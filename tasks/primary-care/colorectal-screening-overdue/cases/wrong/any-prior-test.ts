// Counts any colonoscopy or stool test ever recorded as "up to date": ignores dates, intervals and a colonoscopy
// that was never done.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Observation, Procedure } from '@medplum/fhirtypes';

export const description = 'any prior colonoscopy or stool test, of any age or status, means not due';
export const catches = ['due_judgement', 'screening_order'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.read('Patient', patient);
  const colonoscopies = await http.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|73761001' });
  const stool = await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|29771-3,http://loinc.org|77354-9,http://loinc.org|2335-8' });
  if (colonoscopies.length > 0 || stool.length > 0) {
    await submit(JSON.stringify({ due: false, ordered: null }));
    return;
  }
  await http.create({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order',
    code: { coding: [{ system: 'http://snomed.info/sct', code: '73761001', display: 'Colonoscopy' }] },
    subject: { reference: `Patient/${patient}` }, authoredOn: now,
  });
  await submit(JSON.stringify({ due: true, ordered: 'colonoscopy' }));
}
