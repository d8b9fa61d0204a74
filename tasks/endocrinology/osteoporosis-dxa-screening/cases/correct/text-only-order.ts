// Orders a text-only "DEXA scan, hips and lumbar spine" (no code) with a note on the order; states "none" for no
// prior DXA; answers with a "yes"/"no" string.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DiagnosticReport, Patient, Procedure } from '@medplum/fhirtypes';

export const description = 'text-only DEXA order with the indication in a note; "yes"/"no" strings';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  await http.search('Condition', { patient });
  await http.search('MedicationRequest', { patient });
  const reports = await http.search<DiagnosticReport>('DiagnosticReport', { patient, code: 'http://loinc.org|38269-7' });
  const procs = await http.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|312681000' });
  const dates = [...reports.map((r) => r.effectiveDateTime ?? ''), ...procs.map((x) => x.performedDateTime ?? '')].filter(Boolean).sort();
  const last = dates.at(-1);
  const old = (Date.parse(now) - Date.parse(p.birthDate!)) / (365.25 * 86_400_000) >= 65;
  const due = old && (!last || (Date.parse(now) - Date.parse(last)) / 86_400_000 > 730);
  if (due) {
    await http.create({
      resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      code: { text: 'DEXA scan, hips and lumbar spine' }, note: [{ text: 'USPSTF osteoporosis screening, woman over 65' }],
    });
  }
  const note = due ? 'Never had a DEXA. Osteoporosis screening indicated: DEXA ordered.' : `DEXA on ${last!.slice(0, 10)}: screening not indicated again yet.`;
  await http.create({
    resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }],
  });
  await submit({ due: due ? 'yes' : 'no', lastDxa: last ? last.slice(0, 10) : 'none', ordered: due ? 'DEXA scan' : null });
}
