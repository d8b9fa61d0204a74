// Reads only the susceptibility: keeps the empiric drug whenever it tested susceptible (nitrofurantoin at CrCl 23,
// ciprofloxacin in the first trimester), otherwise switches to cephalexin.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DiagnosticReport, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'keeps any susceptible empiric drug (ignores CrCl and pregnancy)';
export const catches = ['empiric_addressed', 'regimen_active'];
export const mustFail = 'some';

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
  const drug = /nitrofurantoin|sulfamethoxazole|ciprofloxacin/i.exec(JSON.stringify(empiric.medicationCodeableConcept))![0];
  const s = panel.find((o) => new RegExp(drug, 'i').test(o.code?.text ?? ''))?.interpretation?.[0]?.coding?.[0]?.code === 'S';
  if (!s) {
    await http.update<MedicationRequest>({ ...empiric, id: empiric.id!, status: 'stopped' });
    await http.create<MedicationRequest>({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '309114', display: 'cephalexin 500 MG Oral Capsule' }] },
      dosageInstruction: [{ text: '500 mg twice daily', timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 500, unit: 'mg' } }] }] });
  }
  const antibiotic = s ? drug : 'cephalexin';
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`${organism}: ${s ? `susceptible to ${drug}, continue` : `resistant to ${drug}; cephalexin started`}.`).toString('base64') } }] });
  await submit({ organism, antibiotic, changed: !s });
}
