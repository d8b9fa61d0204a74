// Reads every report and procedure (no code filter), recognises a DXA by LOINC or SNOMED, orders by LOINC 38269-7 in
// the imaging category with a text reason; answers JSON with the date and writes a note with "next DXA due".
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DiagnosticReport, Patient, Procedure } from '@medplum/fhirtypes';

export const description = 'LOINC 38269-7 imaging order with text reason; not-due note says when the next DXA is due';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  await http.search('Condition', { patient, 'clinical-status': 'active' });
  await http.search('MedicationRequest', { patient, status: 'active' });
  const dxa = /38269-7|312681000|77080|bone density|dxa/i;
  const reports = (await http.search<DiagnosticReport>('DiagnosticReport', { patient })).filter((r) => dxa.test(JSON.stringify(r.code))).map((r) => r.effectiveDateTime ?? r.issued ?? '');
  const procs = (await http.search<Procedure>('Procedure', { patient })).filter((x) => dxa.test(JSON.stringify(x.code))).map((x) => x.performedDateTime ?? '');
  const last = [...reports, ...procs].filter(Boolean).sort().at(-1);
  const age = new Date(now).getUTCFullYear() - Number(p.birthDate!.slice(0, 4));
  const due = age >= 65 && !last;
  if (due) {
    await http.create({
      resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      category: [{ coding: [{ system: 'http://snomed.info/sct', code: '363679005', display: 'Imaging' }] }],
      code: { coding: [{ system: 'http://loinc.org', code: '38269-7', display: 'DXA Bone density' }] },
      reasonCode: [{ text: 'Screening for osteoporosis, age 65+' }],
    });
  }
  const next = last ? `${Number(last.slice(0, 4)) + 2}-${last.slice(5, 7)}` : '';
  const note = due ? 'Bone density (DXA): none on file. Due for screening, DXA ordered.' : `Bone density (DXA) last done ${last!.slice(0, 10)}. Next DXA due ${next} at the earliest.`;
  await http.create({
    resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }],
  });
  await submit({ due, lastDxa: last ? last.slice(0, 10) : null, ordered: due ? 'DXA (LOINC 38269-7)' : null });
}
