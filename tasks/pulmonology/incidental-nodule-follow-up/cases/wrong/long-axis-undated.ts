// Sizes the nodule by its long axis, so the 9 x 7 mm ground-glass nodule becomes "9 mm", and orders the follow-up CT
// without a date ("follow-up CT").
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DiagnosticReport } from '@medplum/fhirtypes';

export const description = 'long axis as the size; CT ordered without a date';
export const catches = ['nodule_characterised', 'followup_plan'];
export const mustFail = 'some';

const SIZE = /(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)\s*mm\s+(?:pure\s+|spiculated\s+)?(solid|part-solid|ground-glass)/i;

export default async function ({ http, patient, submit }: CaseContext): Promise<void> {
  await http.read('Patient', patient);
  await http.search('Condition', { patient });
  const reports = await http.search<DiagnosticReport>('DiagnosticReport', { patient, _sort: '-date' });
  await http.search('Observation', { patient, code: 'http://loinc.org|72166-2' });
  const nodules = reports.map((r) => ({ date: r.effectiveDateTime!.slice(0, 10), m: SIZE.exec(r.conclusion ?? '') })).filter((x) => x.m);
  const m = nodules[0].m!;
  const size = Number(m[1]);
  const type = m[3].toLowerCase();
  const stable = nodules.length > 1 && Number(nodules[1].m![1]) === size;
  let plan = 'No routine follow-up.';
  if (!stable && size >= 6) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, code: { text: size > 8 && type === 'solid' ? 'PET/CT' : 'CT chest follow-up' } });
    plan = size > 8 && type === 'solid' ? 'PET/CT.' : 'Follow-up CT chest in 6-12 months.';
  }
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`Nodule size ${size} mm, ${type}. ${plan}`).toString('base64') } }] });
  await submit({ noduleSizeMm: size, noduleType: type, recommendation: plan });
}
