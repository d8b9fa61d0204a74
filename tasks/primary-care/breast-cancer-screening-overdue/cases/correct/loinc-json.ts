// A physician who orders the LOINC imaging code (24606-6 MG Breast Screening) without a category, answers in JSON
// and writes a terse note.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DiagnosticReport, Patient, Procedure } from '@medplum/fhirtypes';

export const description = 'LOINC 24606-6 order, no category, JSON answer, terse note (not due: only the next date)';

const MAMMO = ['71651007', '24623002', '24606-6', '26175-0', '77067'];
const MASTECTOMY = ['22418005', '428529004', '27865001', '456903003', '52314009', '76468001', '17086001', '60633004', '14693006'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const person = await http.read<Patient>('Patient', patient);
  const conditions = await http.search<Condition>('Condition', { patient, 'clinical-status': 'active,inactive,resolved' });
  const procedures = await http.search<Procedure>('Procedure', { patient });
  const reports = await http.search<DiagnosticReport>('DiagnosticReport', { patient, category: 'RAD' });
  const codes = (c?: { coding?: { code?: string }[] }) => (c?.coding ?? []).map((x) => x.code ?? '');
  const mastectomy = [...conditions.map((c) => c.code), ...procedures.map((p) => p.code)].some((c) => codes(c).some((x) => MASTECTOMY.includes(x)));
  const last = [
    ...procedures.filter((p) => codes(p.code).some((x) => MAMMO.includes(x))).map((p) => p.performedDateTime ?? ''),
    ...reports.filter((r) => codes(r.code).some((x) => MAMMO.includes(x))).map((r) => r.effectiveDateTime ?? ''),
  ].sort().pop()?.slice(0, 10) ?? null;
  const birth = new Date(person.birthDate!);
  const today = new Date(now);
  const age = today.getUTCFullYear() - birth.getUTCFullYear() - (today.getUTCMonth() < birth.getUTCMonth() || (today.getUTCMonth() === birth.getUTCMonth() && today.getUTCDate() < birth.getUTCDate()) ? 1 : 0);
  const twoYearsAgo = new Date(today);
  twoYearsAgo.setUTCFullYear(today.getUTCFullYear() - 2);
  const due = !mastectomy && age >= 40 && age <= 74 && (!last || last < twoYearsAgo.toISOString().slice(0, 10));
  if (due) {
    await http.create({
      resourceType: 'ServiceRequest', status: 'active', intent: 'original-order',
      code: { coding: [{ system: 'http://loinc.org', code: '24606-6', display: 'MG Breast Screening' }] },
      subject: { reference: `Patient/${patient}` }, authoredOn: now,
    });
  }
  // A not-due note that only gives the next date (no "not due" wording).
  const next = last ? `${Number(last.slice(0, 4)) + 2}${last.slice(4, 7)}` : '';
  const text = `Mammogram: last ${last ?? 'none on file'}. ${mastectomy ? 'Prior bilateral mastectomy: screening not indicated.' : due ? 'Overdue - screening mammogram ordered.' : `Next screening mammogram ${next}.`}`;
  await http.create({
    resourceType: 'DocumentReference', status: 'current', type: { coding: [{ system: 'http://loinc.org', code: '11506-3' }] }, subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }],
  });
  await submit(JSON.stringify({ due, lastMammogram: last, ordered: due ? 'MG Breast Screening (LOINC 24606-6)' : null }));
}
