// A clinician who, above goal, adds chlorthalidone 12.5 mg as a text-only order (thiazide-like; fine with K 5.2) with
// a text-only "BMP in 2 weeks", and writes the note in prose; at goal: "well controlled, no change".
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Observation } from '@medplum/fhirtypes';

export const description = 'above goal: text-only chlorthalidone 12.5 mg + text BMP; at goal: no change';

const newest = (l: Observation[]) => l.filter((o) => o.valueQuantity?.value !== undefined || o.component).sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''));
const part = (o: Observation, code: string) => o.component?.find((c) => c.code?.coding?.some((x) => x.code === code))?.valueQuantity?.value;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const bps = newest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|85354-9' })).slice(0, 2);
  const k = newest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2823-3' }))[0]!;
  const egfr = newest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3' }))[0]!;
  await http.search('MedicationRequest', { patient, status: 'active' });
  const above = bps.every((o) => part(o, '8480-6')! >= 130 || part(o, '8462-4')! >= 80);
  const subject = { reference: `Patient/${patient}` };
  const latest = `${part(bps[0]!, '8480-6')}/${part(bps[0]!, '8462-4')}`;
  let plan = 'Blood pressure well controlled; continue lisinopril at the current dose.';
  if (above) {
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { text: 'chlorthalidone 12.5 mg tablet' }, dosageInstruction: [{ text: 'Take 12.5 mg by mouth every morning' }] });
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, authoredOn: now, code: { text: 'BMP (basic metabolic panel)' }, occurrenceDateTime: new Date(Date.parse(now) + 14 * 86_400_000).toISOString() });
    plan = 'Add chlorthalidone 12.5 mg daily; BMP in 2 weeks.';
  }
  const text = `HTN f/u. Hypertension. Last BP ${latest} mmHg. K ${k.valueQuantity!.value} mmol/L. eGFR ${egfr.valueQuantity!.value}. ${plan}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(plan);
}
