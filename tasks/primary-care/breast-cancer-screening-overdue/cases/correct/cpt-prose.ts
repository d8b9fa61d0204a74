// A physician who orders by CPT (77067, screening mammography, no category), writes US dates (MM/DD/YYYY) and
// answers in a sentence; a not-due note says when the next one is due.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DiagnosticReport, Patient, Procedure } from '@medplum/fhirtypes';

export const description = 'CPT 77067 order without category, US dates, prose answer, "next due" in the note';

const us = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const person = await http.read<Patient>('Patient', patient);
  const problems = await http.search<Condition>('Condition', { patient });
  const procedures = await http.search<Procedure>('Procedure', { patient });
  const reports = await http.search<DiagnosticReport>('DiagnosticReport', { patient });
  const mastectomy = [...problems.map((c) => c.code), ...procedures.map((p) => p.code)]
    .some((code) => /bilateral[^,]*mastectomy|mastectomy[^,]*bilateral/i.test(`${code?.text ?? ''} ${code?.coding?.map((c) => c.display).join(' ') ?? ''}`));
  const dates = [
    ...procedures.filter((p) => p.status === 'completed' && /mammo/i.test(`${p.code?.text} ${p.code?.coding?.map((c) => c.display).join(' ')}`)).map((p) => p.performedDateTime!),
    ...reports.filter((r) => r.status === 'final' && /mammo|MG Breast/i.test(`${r.code?.text} ${r.code?.coding?.map((c) => c.display).join(' ')}`)).map((r) => r.effectiveDateTime!),
  ].filter(Boolean).sort().reverse();
  const last = dates[0]?.slice(0, 10);
  const age = (Date.parse(now) - Date.parse(person.birthDate!)) / (365.25 * 86_400_000);
  const sinceMonths = last ? (Date.parse(now) - Date.parse(last)) / (30.44 * 86_400_000) : Infinity;
  const due = !mastectomy && age >= 40 && age < 75 && sinceMonths > 24;
  if (due) {
    await http.create({
      resourceType: 'ServiceRequest', status: 'active', intent: 'order',
      code: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '77067', display: 'Screening mammography, bilateral, including CAD' }] },
      subject: { reference: `Patient/${patient}` }, authoredOn: now,
    });
  }
  const next = last ? `${Number(last.slice(0, 4)) + 2}-${last.slice(5, 7)}` : '';
  const note = mastectomy
    ? `Care gap review. S/p bilateral mastectomy - screening mammography is not indicated. Last mammogram ${last ? us(last) : 'none on file'}.`
    : due
      ? `Care gap review. Last mammogram: ${last ? us(last) : 'none - no prior mammogram on file'}. She is due for biennial screening; screening mammogram ordered.`
      : `Care gap review. Last mammogram ${us(last!)}, normal. Screening is up to date; next screening mammogram due ${next}.`;
  await http.create({
    resourceType: 'DocumentReference', status: 'current', type: { text: 'Progress note' }, subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }],
  });
  await submit(due
    ? `Yes, she is due: last mammogram ${last ? us(last) : 'none on file'}. Ordered a screening mammogram (CPT 77067).`
    : `No, she is not due${mastectomy ? ' (bilateral mastectomy)' : ''}. Last mammogram ${last ? us(last) : 'none on file'}; nothing ordered.`);
}
