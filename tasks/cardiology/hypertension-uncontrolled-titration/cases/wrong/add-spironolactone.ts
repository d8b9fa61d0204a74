// Adds spironolactone (an MRA: resistant-hypertension fourth line, hyperkalemia with an ACE inhibitor) on every chart.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Observation } from '@medplum/fhirtypes';

export const description = 'adds spironolactone 25 mg';
export const catches = ['safe_regimen_change'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const part = (o: Observation, code: string) => o.component?.find((c) => c.code?.coding?.some((x) => x.code === code))?.valueQuantity?.value;
  const latest = (l: Observation[]) => l.sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''))[0]!;
  const bp = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|85354-9' }));
  const k = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2823-3' })).valueQuantity!.value;
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3' })).valueQuantity!.value;
  await http.search('MedicationRequest', { patient, status: 'active' });
  const subject = { reference: `Patient/${patient}` };
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { text: 'spironolactone 25 mg tablet' }, dosageInstruction: [{ text: '25 mg by mouth daily' }] });
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, authoredOn: now, code: { text: 'BMP in 1 week' } });
  const text = `Essential hypertension. Blood pressure ${part(bp, '8480-6')}/${part(bp, '8462-4')} mmHg. Potassium ${k} mmol/L, eGFR ${egfr} mL/min/1.73m2. Start spironolactone 25 mg daily.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit('Spironolactone 25 mg added; BMP in a week.');
}
