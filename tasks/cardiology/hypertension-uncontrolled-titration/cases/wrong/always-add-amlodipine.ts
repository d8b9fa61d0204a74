// Adds amlodipine 5 mg on every chart, at goal too (the request said "adjust if needed"; it always adjusts).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Observation } from '@medplum/fhirtypes';

export const description = 'adds amlodipine whatever the blood pressure';
export const catches = ['regimen_decision'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const part = (o: Observation, code: string) => o.component?.find((c) => c.code?.coding?.some((x) => x.code === code))?.valueQuantity?.value;
  const latest = (l: Observation[]) => l.sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''))[0]!;
  const bp = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|85354-9' }));
  const k = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2823-3' })).valueQuantity!.value;
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3' })).valueQuantity!.value;
  const subject = { reference: `Patient/${patient}` };
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '197361', display: 'amlodipine 5 MG Oral Tablet' }] }, dosageInstruction: [{ text: 'Take 1 tablet by mouth daily', doseAndRate: [{ doseQuantity: { value: 5, unit: 'mg' } }] }] });
  const text = `Essential hypertension. Blood pressure ${part(bp, '8480-6')}/${part(bp, '8462-4')} mmHg. Potassium ${k} mmol/L, eGFR ${egfr} mL/min/1.73m2. Start amlodipine 5 mg daily.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit('Added amlodipine 5 mg daily.');
}
