// A physician whose order entry codes procedures in HCPCS: a screening colonoscopy is G0121 (average risk), with no
// category; the answer says "yes"/"no" as text in the JSON.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Bundle, Observation, Patient, Procedure } from '@medplum/fhirtypes';

export const description = 'orders HCPCS G0121 screening colonoscopy when due, no category';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const person = await http.read<Patient>('Patient', patient);
  await http.request<Bundle>('GET', `Condition?patient=${patient}`);
  const colonoscopies = (await http.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|73761001' })).filter((p) => p.status === 'completed');
  const stool = (await http.search<Observation>('Observation', { patient })).filter((o) => o.status === 'final');
  const yearsAgo = (d?: string) => (d ? (Date.parse(now) - Date.parse(d)) / (365.25 * 86_400_000) : Infinity);
  const age = yearsAgo(person.birthDate);
  const covered = colonoscopies.some((p) => yearsAgo(p.performedDateTime) < 10)
    || stool.some((o) => o.code?.coding?.some((c) => c.code === '77354-9' || c.code === '77353-1') && yearsAgo(o.effectiveDateTime) < 3)
    || stool.some((o) => o.code?.coding?.some((c) => c.code === '29771-3' || c.code === '57905-2' || c.code === '2335-8') && yearsAgo(o.effectiveDateTime) < 1);
  const due = age >= 45 && age < 76 && !covered;
  if (due) {
    await http.create({
      resourceType: 'ServiceRequest', status: 'active', intent: 'order',
      code: { coding: [{ system: 'https://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets', code: 'G0121', display: 'Colorectal cancer screening; colonoscopy on individual not meeting criteria for high risk' }] },
      subject: { reference: `Patient/${patient}` }, authoredOn: now, reasonCode: [{ text: 'screening' }],
    });
  }
  await submit(JSON.stringify({ due: due ? 'yes' : 'no', ordered: due ? 'colonoscopy (G0121)' : 'none' }));
}
