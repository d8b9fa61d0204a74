// Decides correctly but orders a diagnostic mammogram (CPT 77066) for an asymptomatic screening patient.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DiagnosticReport, Patient, Procedure } from '@medplum/fhirtypes';

export const description = 'orders a diagnostic (not screening) mammogram when screening is due';
export const catches = ['screening_order'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const person = await http.read<Patient>('Patient', patient);
  const conditions = await http.search<Condition>('Condition', { patient });
  const procedures = await http.search<Procedure>('Procedure', { patient });
  const reports = await http.search<DiagnosticReport>('DiagnosticReport', { patient });
  const mastectomy = [...conditions.map((c) => c.code), ...procedures.map((p) => p.code)].some((c) => /bilateral/i.test(JSON.stringify(c)) && /mastectomy/i.test(JSON.stringify(c)));
  const last = [
    ...procedures.filter((p) => p.status === 'completed' && /mammo/i.test(JSON.stringify(p.code))).map((p) => p.performedDateTime ?? ''),
    ...reports.filter((r) => r.status === 'final' && /mammo|MG Breast/i.test(JSON.stringify(r.code))).map((r) => r.effectiveDateTime ?? ''),
  ].sort().pop()?.slice(0, 10) ?? null;
  const age = (Date.parse(now) - Date.parse(person.birthDate!)) / 31_557_600_000;
  const due = !mastectomy && age >= 50 && age < 75 && (!last || Date.parse(now) - Date.parse(last) > 2 * 31_557_600_000);
  if (due) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', code: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '77066', display: 'Diagnostic mammography, bilateral' }], text: 'Diagnostic mammogram, bilateral' }, subject: { reference: `Patient/${patient}` }, authoredOn: now });
  }
  const text = `Last mammogram ${last ?? 'none on file'}. ${mastectomy ? 'Bilateral mastectomy: not indicated.' : due ? 'Due - mammogram ordered.' : 'Not due.'}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(JSON.stringify({ due, lastMammogram: last, ordered: due ? 'diagnostic mammogram' : null }));
}
