// "Repeat CT in a year" for every nodule: too much for the low-risk 5 mm and the stable nodule, too little for the
// spiculated 13 mm one.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DiagnosticReport } from '@medplum/fhirtypes';

export const description = 'CT chest at 12 months whatever the nodule';
export const catches = ['followup_plan'];
export const mustFail = 'some';

const SIZE = /(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)\s*mm\s+(?:pure\s+|spiculated\s+)?(solid|part-solid|ground-glass)/i;

export default async function ({ http, patient, submit }: CaseContext): Promise<void> {
  await http.read('Patient', patient);
  await http.search('Condition', { patient });
  const reports = await http.search<DiagnosticReport>('DiagnosticReport', { patient, _sort: '-date' });
  await http.search('Observation', { patient, code: 'http://loinc.org|72166-2' });
  const latest = reports.find((r) => SIZE.test(r.conclusion ?? ''))!;
  const m = SIZE.exec(latest.conclusion ?? '')!;
  const mean = (Number(m[1]) + Number(m[2])) / 2;
  const d = new Date(latest.effectiveDateTime!);
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
    code: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '71250' }] }, occurrenceDateTime: d.toISOString().slice(0, 10) });
  const plan = 'Repeat CT chest in 12 months.';
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`Nodule ${mean} mm ${m[3]}. ${plan}`).toString('base64') } }] });
  await submit({ noduleSizeMm: mean, noduleType: m[3].toLowerCase(), recommendation: plan });
}
