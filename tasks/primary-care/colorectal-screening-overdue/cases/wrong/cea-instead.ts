// Decides correctly but orders a CEA blood test "for colon cancer screening": CEA is a tumour marker for follow-up,
// not a screening test (USPSTF 2021 lists none).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Observation, Patient, Procedure } from '@medplum/fhirtypes';

export const description = 'right decision, but orders a CEA level as the screening test';
export const catches = ['screening_order'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const person = await http.read<Patient>('Patient', patient);
  const procedures = await http.search<Procedure>('Procedure', { patient });
  const stool = await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|29771-3,http://loinc.org|77354-9' });
  const yearsAgo = (d?: string) => (d ? (Date.parse(now) - Date.parse(d)) / (365.25 * 86_400_000) : Infinity);
  const covered = procedures.some((p) => p.status === 'completed' && p.code?.coding?.some((c) => c.code === '73761001') && yearsAgo(p.performedDateTime) < 10)
    || stool.some((o) => yearsAgo(o.effectiveDateTime) < (o.code?.coding?.some((c) => c.code === '77354-9') ? 3 : 1));
  const due = yearsAgo(person.birthDate) >= 45 && yearsAgo(person.birthDate) < 76 && !covered;
  if (due) {
    await http.create({
      resourceType: 'ServiceRequest', status: 'active', intent: 'order',
      category: [{ coding: [{ system: 'http://snomed.info/sct', code: '108252007' }] }],
      code: { coding: [{ system: 'http://loinc.org', code: '2039-6', display: 'Carcinoembryonic Ag [Mass/volume] in Serum or Plasma' }], text: 'CEA for colon cancer screening' },
      subject: { reference: `Patient/${patient}` }, authoredOn: now,
    });
  }
  await submit(JSON.stringify({ due, ordered: due ? 'CEA' : null }));
}
