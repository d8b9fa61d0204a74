// Reads mammogram dates carefully but never the problem list or surgical history: a woman after bilateral
// mastectomy, whose last mammogram was years ago, is sent for a screening mammogram.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DiagnosticReport, Patient, Procedure } from '@medplum/fhirtypes';

export const description = 'decides from mammogram dates only; a bilateral mastectomy is ignored';
export const catches = ['due_judgement', 'screening_order', 'reviewed_problem_list', 'reviewed_mammogram_history'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const person = await http.read<Patient>('Patient', patient);
  const procedures = await http.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|71651007' });
  const reports = await http.search<DiagnosticReport>('DiagnosticReport', { patient, category: 'RAD' });
  const last = [...procedures.map((p) => p.performedDateTime ?? ''), ...reports.filter((r) => /mammo|MG Breast/i.test(JSON.stringify(r.code))).map((r) => r.effectiveDateTime ?? '')].sort().pop()?.slice(0, 10) ?? null;
  const age = (Date.parse(now) - Date.parse(person.birthDate!)) / 31_557_600_000;
  const due = age >= 50 && age < 75 && (!last || Date.parse(now) - Date.parse(last) > 2 * 31_557_600_000);
  if (due) await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', code: { coding: [{ system: 'http://snomed.info/sct', code: '24623002' }] }, subject: { reference: `Patient/${patient}` }, authoredOn: now });
  const text = `Last mammogram ${last ?? 'none on file'}. ${due ? 'Due - screening mammogram ordered.' : 'Not due.'}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(JSON.stringify({ due, lastMammogram: last, ordered: due ? 'screening mammogram' : null }));
}
