// Orders a heel quantitative ultrasound instead of a central DXA (not the USPSTF screening test the order asks for).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DiagnosticReport, Patient, Procedure } from '@medplum/fhirtypes';

export const description = 'orders a calcaneal ultrasound instead of a DXA when due';
export const catches = ['screening_order'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  await http.search('Condition', { patient });
  await http.search('MedicationRequest', { patient });
  const reports = await http.search<DiagnosticReport>('DiagnosticReport', { patient, code: 'http://loinc.org|38269-7' });
  const procs = await http.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|312681000' });
  const last = [...reports.map((r) => r.effectiveDateTime ?? ''), ...procs.map((x) => x.performedDateTime ?? '')].filter(Boolean).sort().at(-1);
  const due = (Date.parse(now) - Date.parse(p.birthDate!)) / (365.25 * 86_400_000) >= 65 && !last;
  if (due) {
    await http.create({
      resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      code: { text: 'Heel ultrasound bone density (calcaneal QUS)' }, reasonCode: [{ text: 'Osteoporosis screening' }],
    });
  }
  const note = due ? 'No DXA on file. Screening due: heel ultrasound ordered.' : `Last DXA ${last!.slice(0, 10)}: not due.`;
  await http.create({
    resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }],
  });
  await submit({ due, lastDxa: last ? last.slice(0, 10) : null, ordered: due ? 'heel ultrasound' : null });
}
