// Looks for prior mammograms only among procedures: a mammogram recorded as an imaging report alone is missed and a
// second one is ordered months after the first.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Patient, Procedure } from '@medplum/fhirtypes';

export const description = 'only Procedure records count as prior mammograms (imaging reports ignored)';
export const catches = ['due_judgement', 'screening_order'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const person = await http.read<Patient>('Patient', patient);
  const conditions = await http.search('Condition', { patient });
  const procedures = await http.search<Procedure>('Procedure', { patient });
  const mastectomy = [...conditions, ...procedures].some((r) => /mastectomy/i.test(JSON.stringify((r as { code?: unknown }).code ?? '')));
  const last = procedures.filter((p) => p.status === 'completed' && p.code?.coding?.some((c) => c.code === '71651007')).map((p) => p.performedDateTime ?? '').sort().pop()?.slice(0, 10) ?? null;
  const age = (Date.parse(now) - Date.parse(person.birthDate!)) / 31_557_600_000;
  const due = !mastectomy && age >= 40 && age < 75 && (!last || Date.parse(now) - Date.parse(last) > 2 * 31_557_600_000);
  if (due) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', code: { coding: [{ system: 'http://snomed.info/sct', code: '24623002', display: 'Screening mammography' }] }, subject: { reference: `Patient/${patient}` }, authoredOn: now });
  }
  const text = `Last mammogram: ${last ?? 'none on file'}. ${mastectomy ? 'Bilateral mastectomy - screening not indicated.' : due ? 'Screening mammogram is due - ordered.' : 'Not due.'}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(JSON.stringify({ due, lastMammogram: last, ordered: due ? 'screening mammogram' : null }));
}
