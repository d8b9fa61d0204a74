// Looks for a prior DXA among procedures only: misses a DXA recorded only as a report and orders a repeat.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Patient, Procedure } from '@medplum/fhirtypes';

export const description = 'searches procedures only for a prior DXA';
export const catches = ['screening_order', 'due_judgement', 'reviewed_bone_history'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  await http.search('Condition', { patient });
  await http.search('MedicationRequest', { patient });
  const last = (await http.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|312681000' })).map((x) => x.performedDateTime ?? '').sort().at(-1);
  const due = (Date.parse(now) - Date.parse(p.birthDate!)) / (365.25 * 86_400_000) >= 65 && !last;
  if (due) {
    await http.create({
      resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      code: { coding: [{ system: 'http://snomed.info/sct', code: '312681000', display: 'Bone density scan' }] }, reasonCode: [{ text: 'Osteoporosis screening' }],
    });
  }
  const note = due ? 'No DXA on file. Screening is due: DXA ordered.' : `Last DXA ${last!.slice(0, 10)}: not due.`;
  await http.create({
    resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }],
  });
  await submit({ due, lastDxa: last ? last.slice(0, 10) : null, ordered: due ? 'DXA' : null });
}
