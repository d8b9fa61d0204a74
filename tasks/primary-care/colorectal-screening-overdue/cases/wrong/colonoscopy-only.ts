// Knows the 10-year colonoscopy interval but not that a recent FIT or stool DNA-FIT also covers the patient: orders a
// colonoscopy the patient does not need yet.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Patient, Procedure } from '@medplum/fhirtypes';

export const description = 'only a colonoscopy in 10 years counts; recent stool tests are ignored';
export const catches = ['due_judgement', 'screening_order'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const person = await http.read<Patient>('Patient', patient);
  const procedures = await http.search<Procedure>('Procedure', { patient });
  await http.search('Observation', { patient, category: 'laboratory' });
  const age = (Date.parse(now) - Date.parse(person.birthDate!)) / (365.25 * 86_400_000);
  const recent = procedures.some((p) => p.status === 'completed' && p.code?.coding?.some((c) => c.code === '73761001')
    && Date.parse(now) - Date.parse(p.performedDateTime ?? '') < 10 * 365.25 * 86_400_000);
  const due = age >= 45 && age < 76 && !recent;
  if (due) {
    await http.create({
      resourceType: 'ServiceRequest', status: 'active', intent: 'order',
      code: { coding: [{ system: 'http://snomed.info/sct', code: '73761001', display: 'Colonoscopy' }] },
      subject: { reference: `Patient/${patient}` }, authoredOn: now,
    });
  }
  await submit(JSON.stringify({ due, ordered: due ? 'colonoscopy' : null }));
}
