// Reads only the newest report, so the 10 x 8 mm nodule unchanged since the outside CT of 2023 looks new and > 8 mm:
// a PET/CT for a benign, stable nodule.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DiagnosticReport } from '@medplum/fhirtypes';

export const description = 'ignores the prior outside CT (PET for a nodule stable for 2+ years)';
export const catches = ['followup_plan', 'reviewed_imaging'];
export const mustFail = 'some';

const SIZE = /(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)\s*mm\s+(?:pure\s+|spiculated\s+)?(solid|part-solid|ground-glass)/i;
const plusMonths = (d: string, n: number) => { const x = new Date(`${d}T00:00:00Z`); x.setUTCMonth(x.getUTCMonth() + n); return x.toISOString().slice(0, 10); };

export default async function ({ http, patient, submit }: CaseContext): Promise<void> {
  await http.read('Patient', patient);
  await http.search('Condition', { patient });
  const latest = (await http.search<DiagnosticReport>('DiagnosticReport', { patient, _sort: '-date', _count: 1 }))[0];
  await http.search('Observation', { patient, code: 'http://loinc.org|72166-2' });
  const m = SIZE.exec(latest.conclusion ?? '')!;
  const mean = (Number(m[1]) + Number(m[2])) / 2;
  const type = m[3].toLowerCase();
  const date = latest.effectiveDateTime!.slice(0, 10);
  let plan = 'No routine follow-up needed.';
  if (type === 'solid' && Math.round(mean) > 8) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, code: { text: 'FDG PET/CT' } });
    plan = 'PET/CT ordered.';
  } else if (Math.round(mean) >= 6) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, code: { text: 'CT chest' }, occurrenceDateTime: plusMonths(date, 6) });
    plan = 'CT chest in 6 months.';
  }
  const note = `Nodule ${mean} mm mean, ${type}. ${plan}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ noduleSizeMm: mean, noduleType: type, recommendation: plan });
}
