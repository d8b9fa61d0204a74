// Orders the repeat DXA the patient asked for, whatever the interval.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DiagnosticReport } from '@medplum/fhirtypes';

export const description = 'orders the requested repeat DXA regardless of the interval';
export const catches = ['dxa_order_matches', 'dxa_judgement'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search('MedicationRequest', { patient });
  const last = (await http.search<DiagnosticReport>('DiagnosticReport', { patient, code: 'http://loinc.org|38269-7' })).sort((a, b) => Date.parse(b.effectiveDateTime!) - Date.parse(a.effectiveDateTime!))[0]!;
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, code: { coding: [{ system: 'http://snomed.info/sct', code: '312681000' }] } });
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`Last DXA ${last.effectiveDateTime!.slice(0, 10)}: ${last.conclusion} Repeat DXA ordered.`).toString('base64') } }] });
  await submit({ orderDxa: true, lastDxa: last.effectiveDateTime!.slice(0, 10), nextDue: now.slice(0, 10) });
}
