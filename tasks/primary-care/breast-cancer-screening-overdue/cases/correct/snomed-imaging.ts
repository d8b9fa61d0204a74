// A physician who orders the SNOMED screening mammography concept with the imaging category, answers "yes"/"no" in
// the JSON, and dates in words ("October 14, 2022") in the note.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DiagnosticReport, Patient, Procedure } from '@medplum/fhirtypes';

export const description = 'SNOMED 24623002 with imaging category; JSON "yes"/"no"; note dates written out';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const words = (iso: string) => `${MONTHS[Number(iso.slice(5, 7)) - 1]} ${Number(iso.slice(8, 10))}, ${iso.slice(0, 4)}`;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const person = await http.read<Patient>('Patient', patient);
  const conditions = await http.search<Condition>('Condition', { patient });
  const procedures = await http.search<Procedure>('Procedure', { patient });
  const reports = await http.search<DiagnosticReport>('DiagnosticReport', { patient });
  const text = (c?: { text?: string; coding?: { display?: string }[] }) => `${c?.text ?? ''} ${(c?.coding ?? []).map((x) => x.display ?? '').join(' ')}`;
  const mastectomy = [...conditions.map((c) => c.code), ...procedures.map((p) => p.code)].some((c) => /mastectomy/i.test(text(c)) && /bilateral/i.test(text(c)));
  const seen = [
    ...procedures.filter((p) => p.status === 'completed' && /mammo/i.test(text(p.code))).map((p) => p.performedDateTime ?? ''),
    ...reports.filter((r) => ['final', 'amended'].includes(r.status) && /mammo|MG Breast/i.test(text(r.code))).map((r) => r.effectiveDateTime ?? ''),
  ].filter(Boolean).sort();
  const last = seen.length ? seen[seen.length - 1].slice(0, 10) : undefined;
  const age = (Date.parse(now) - Date.parse(person.birthDate!)) / 31_557_600_000;
  const due = !mastectomy && age >= 50 && age < 75 && (!last || Date.parse(now) - Date.parse(last) > 2 * 31_557_600_000);
  if (due) {
    await http.create({
      resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'routine',
      category: [{ coding: [{ system: 'http://snomed.info/sct', code: '363679005', display: 'Imaging' }] }],
      code: { coding: [{ system: 'http://snomed.info/sct', code: '24623002', display: 'Screening mammography' }] },
      subject: { reference: `Patient/${patient}` }, authoredOn: now, reasonCode: [{ text: 'Breast cancer screening' }],
    });
  }
  const note = [
    'Preventive care review - breast cancer screening.',
    last ? `Most recent mammogram: ${words(last)}.` : 'No mammogram has ever been done (none on file).',
    mastectomy ? 'Status post bilateral mastectomy; routine screening mammography is no longer indicated.'
      : due ? 'Per USPSTF she is due for screening; bilateral screening mammogram ordered.' : 'She is not due yet (screening every 2 years).',
  ].join('\n');
  await http.create({
    resourceType: 'DocumentReference', status: 'current', docStatus: 'final', type: { text: 'Preventive care note' }, subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }],
  });
  await submit(JSON.stringify({ due: due ? 'yes' : 'no', lastMammogram: last ?? null, ordered: due ? 'screening mammogram' : null }));
}
