// Prefers TMP-SMX whenever it tested susceptible, full dose, without reading the allergy list (sulfa allergy, CrCl
// 23) or the pregnancy; otherwise nitrofurantoin.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DiagnosticReport, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'TMP-SMX DS whenever susceptible, allergies unread';
export const catches = ['regimen_active', 'safe_writes', 'regimen_dose_safe', 'reviewed_patient_factors', 'empiric_addressed'];
export const mustFail = 'some';

export default async function ({ http, patient, submit }: CaseContext): Promise<void> {
  const report = (await http.search<DiagnosticReport>('DiagnosticReport', { patient, code: 'http://loinc.org|630-4' }))[0];
  const panel: Observation[] = [];
  for (const r of report.result ?? []) panel.push(await http.read<Observation>('Observation', r.reference!.split('/')[1]));
  const organism = panel.find((o) => o.valueCodeableConcept)?.valueCodeableConcept?.text ?? '';
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const empiric = meds.find((m) => /nitrofurantoin|sulfamethoxazole|ciprofloxacin/i.test(JSON.stringify(m.medicationCodeableConcept)))!;
  const tmp = panel.find((o) => /^trimethoprim/i.test(o.code?.text ?? ''))?.interpretation?.[0]?.coding?.[0]?.code === 'S';
  const onTmp = /sulfamethoxazole/i.test(JSON.stringify(empiric.medicationCodeableConcept));
  const target = tmp ? 'tmp' : 'nitro';
  const already = (target === 'tmp' && onTmp) || (target === 'nitro' && /nitrofurantoin/i.test(JSON.stringify(empiric.medicationCodeableConcept)));
  if (!already) {
    await http.update<MedicationRequest>({ ...empiric, id: empiric.id!, status: 'stopped' });
    await http.create<MedicationRequest>({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', ...(target === 'tmp' ? { code: '198335', display: 'sulfamethoxazole 800 MG / trimethoprim 160 MG Oral Tablet' } : { code: '1648759', display: 'nitrofurantoin, macrocrystals 100 MG Oral Capsule' }) }] },
      dosageInstruction: [{ text: '1 by mouth twice daily', timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 1, unit: target === 'tmp' ? 'tablet' : 'capsule' } }] }] });
  }
  const name = target === 'tmp' ? 'trimethoprim-sulfamethoxazole' : 'nitrofurantoin';
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`${organism} susceptible to ${name}. Previous empiric drug reviewed; on ${name} (sulfamethoxazole/nitrofurantoin).`).toString('base64') } }] });
  await submit({ organism, antibiotic: name, changed: !already });
}
