// Orders what the chart needs but writes a keyword-complete note whose direction is wrong: above goal it says the
// added drug is not recommended; at goal it says lisinopril should be stopped.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Observation } from '@medplum/fhirtypes';

export const description = 'right orders; note with the right numbers and the wrong recommendation';
export const catches = ['note_states_decision'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const part = (o: Observation, code: string) => o.component?.find((c) => c.code?.coding?.some((x) => x.code === code))?.valueQuantity?.value;
  const sorted = (l: Observation[]) => l.sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''));
  const bps = sorted(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|85354-9' })).slice(0, 2);
  const k = sorted(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2823-3' }))[0]!.valueQuantity!.value;
  const egfr = sorted(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3' }))[0]!.valueQuantity!.value;
  await http.search('MedicationRequest', { patient, status: 'active' });
  const above = bps.every((o) => part(o, '8480-6')! >= 130 || part(o, '8462-4')! >= 80);
  const subject = { reference: `Patient/${patient}` };
  let plan = 'Lisinopril should be stopped.';
  if (above) {
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { text: 'amlodipine 5 mg tablet' }, dosageInstruction: [{ text: '5 mg by mouth daily' }] });
    plan = 'Amlodipine is not recommended.';
  }
  const text = `Essential hypertension. Blood pressure ${part(bps[0]!, '8480-6')}/${part(bps[0]!, '8462-4')} mmHg. Potassium ${k} mmol/L, eGFR ${egfr} mL/min/1.73m2. ${plan}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(above ? 'Amlodipine 5 mg added.' : 'No change.');
}
