// Not due: next DXA set 18 months after the last (BHOF: 1-2 years after starting therapy); due: LOINC 38269-7 in the
// imaging category. JSON answer; the note lists both T-scores.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DiagnosticReport, MedicationRequest, Procedure } from '@medplum/fhirtypes';

export const description = 'LOINC imaging order when due; next DXA 18 months after the last when not';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.read('Patient', patient);
  await http.search('Condition', { patient, 'clinical-status': 'active' });
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((m) => /alendron|fosamax|46041|risedron|denosumab/i.test(JSON.stringify(m.medicationCodeableConcept)));
  const all = await http.search<MedicationRequest>('MedicationRequest', { patient });
  const since = all.filter((m) => /alendron|fosamax|46041|risedron|denosumab/i.test(JSON.stringify(m.medicationCodeableConcept))).map((m) => m.authoredOn ?? '').filter(Boolean).sort()[0]!;
  void meds;
  const reports = (await http.search<DiagnosticReport>('DiagnosticReport', { patient })).filter((r) => /38269-7/.test(JSON.stringify(r.code)));
  const procs = (await http.search<Procedure>('Procedure', { patient })).filter((x) => /312681000/.test(JSON.stringify(x.code)));
  const dates = [...reports.map((r) => r.effectiveDateTime ?? ''), ...procs.map((x) => x.performedDateTime ?? '')].filter(Boolean).sort((a, b) => Date.parse(b) - Date.parse(a));
  const last = dates[0]!;
  const report = reports.find((r) => r.effectiveDateTime === last);
  const due = Date.parse(now) - Date.parse(last) >= 2 * 365.25 * 86_400_000 && Date.parse(now) - Date.parse(since) >= 5 * 365.25 * 86_400_000;
  if (due) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      category: [{ coding: [{ system: 'http://snomed.info/sct', code: '363679005', display: 'Imaging' }] }], code: { coding: [{ system: 'http://loinc.org', code: '38269-7', display: 'DXA Bone density' }] } });
  }
  const next = due ? now.slice(0, 10) : new Date(Date.parse(last) + 548 * 86_400_000).toISOString().slice(0, 10);
  const note = `Bone density: last DXA ${last.slice(0, 10)} (${report?.conclusion ?? 'see procedure'}). ${due ? 'DXA is due; ordered to decide on a drug holiday.' : `Too soon for a repeat; next DXA due ${next}.`}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ orderDxa: due, lastDxa: last.slice(0, 10), nextDue: next });
}
