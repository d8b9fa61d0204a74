// Adds cephalexin to whatever she is on and never stops the empiric order: two antibiotics at once (and an unneeded
// second drug where the first was right).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DiagnosticReport, Observation } from '@medplum/fhirtypes';

export const description = 'adds cephalexin, leaves the empiric antibiotic active';
export const catches = ['regimen_active', 'empiric_addressed'];

export default async function ({ http, patient, submit }: CaseContext): Promise<void> {
  const report = (await http.search<DiagnosticReport>('DiagnosticReport', { patient, code: 'http://loinc.org|630-4' }))[0];
  const panel: Observation[] = [];
  for (const r of report.result ?? []) panel.push(await http.read<Observation>('Observation', r.reference!.split('/')[1]));
  await http.search('AllergyIntolerance', { patient });
  await http.search('Observation', { patient, code: 'http://loinc.org|2160-0,http://loinc.org|29463-7,http://loinc.org|8636-3,http://loinc.org|11778-8' });
  await http.search('Condition', { patient });
  await http.search('MedicationRequest', { patient, status: 'active' });
  const organism = panel.find((o) => o.valueCodeableConcept)?.valueCodeableConcept?.text ?? '';
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '309114', display: 'cephalexin 500 MG Oral Capsule' }] },
    dosageInstruction: [{ text: '500 mg twice daily', timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 500, unit: 'mg' } }] }] });
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`${organism}: cefazolin susceptible; cephalexin added.`).toString('base64') } }] });
  await submit({ organism, antibiotic: 'cephalexin', changed: true });
}
