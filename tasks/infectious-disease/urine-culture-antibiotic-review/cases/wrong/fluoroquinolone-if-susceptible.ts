// Switches everyone to ciprofloxacin whenever it tested susceptible (the pregnant patient, the QTc 512 ms patient on
// citalopram, and the patient whose nitrofurantoin was fine), keeping the empiric drug only where cipro is resistant.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DiagnosticReport, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'ciprofloxacin whenever susceptible';
export const catches = ['regimen_active', 'empiric_addressed'];

export default async function ({ http, patient, submit }: CaseContext): Promise<void> {
  const report = (await http.search<DiagnosticReport>('DiagnosticReport', { patient, code: 'http://loinc.org|630-4' }))[0];
  const panel: Observation[] = [];
  for (const r of report.result ?? []) panel.push(await http.read<Observation>('Observation', r.reference!.split('/')[1]));
  await http.search('AllergyIntolerance', { patient });
  await http.search('Observation', { patient, code: 'http://loinc.org|2160-0,http://loinc.org|29463-7,http://loinc.org|8636-3,http://loinc.org|11778-8' });
  await http.search('Condition', { patient });
  const organism = panel.find((o) => o.valueCodeableConcept)?.valueCodeableConcept?.text ?? '';
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const empiric = meds.find((m) => /nitrofurantoin|sulfamethoxazole|ciprofloxacin/i.test(JSON.stringify(m.medicationCodeableConcept)))!;
  const cipro = panel.find((o) => /^ciprofloxacin/i.test(o.code?.text ?? ''))?.interpretation?.[0]?.coding?.[0]?.code === 'S';
  const already = /ciprofloxacin/i.test(JSON.stringify(empiric.medicationCodeableConcept));
  if (cipro && !already) {
    await http.update<MedicationRequest>({ ...empiric, id: empiric.id!, status: 'stopped' });
    await http.create<MedicationRequest>({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '197511', display: 'ciprofloxacin 250 MG Oral Tablet' }] },
      dosageInstruction: [{ text: '250 mg twice daily x3 days', timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 250, unit: 'mg' } }] }] });
  }
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`${organism}, ciprofloxacin ${cipro ? 'susceptible: ciprofloxacin' : 'resistant: continue current drug'}.`).toString('base64') } }] });
  await submit({ organism, antibiotic: cipro ? 'ciprofloxacin' : 'unchanged', changed: cipro && !already });
}
