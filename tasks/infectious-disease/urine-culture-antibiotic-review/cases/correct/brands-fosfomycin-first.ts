// Prefers a single dose of Monurol (fosfomycin 3 g, text only, no frequency) where it tested susceptible and the
// empiric drug must go; Keflex 500 mg four times a day (text only) where fosfomycin was not tested; cancels (rather
// than stops) the empiric order; answers in prose.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { AllergyIntolerance, Condition, DiagnosticReport, MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'Monurol 3 g once or Keflex 500 mg QID (text only), empiric order cancelled, prose answer';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  const report = (await http.search<DiagnosticReport>('DiagnosticReport', { patient, code: 'http://loinc.org|630-4', status: 'final' }))[0];
  const panel: Observation[] = [];
  for (const r of report.result ?? []) panel.push(await http.read<Observation>('Observation', r.reference!.split('/')[1]));
  const result = (word: string) => panel.find((o) => new RegExp(`^${word}`, 'i').test(o.code?.text ?? ''))?.interpretation?.[0]?.coding?.[0]?.code;
  const organism = panel.find((o) => o.valueCodeableConcept)?.valueCodeableConcept?.text ?? '';
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  await http.search<AllergyIntolerance>('AllergyIntolerance', { patient });
  const conditions = await http.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  const labs = await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2160-0,http://loinc.org|29463-7,http://loinc.org|8636-3,http://loinc.org|11778-8' });
  const value = (code: string) => labs.find((o) => o.code?.coding?.[0]?.code === code)?.valueQuantity?.value;
  const age = Math.floor((Date.parse(now) - Date.parse(p.birthDate!)) / 31557600000);
  const crcl = ((140 - age) * value('29463-7')!) / (72 * value('2160-0')!) * 0.85;
  const pregnant = conditions.some((c) => /pregnan/i.test(JSON.stringify(c.code)));
  const empiric = meds.find((m) => /nitrofurantoin|sulfamethoxazole|ciprofloxacin/i.test(JSON.stringify(m.medicationCodeableConcept)))!;
  const drug = /nitrofurantoin|sulfamethoxazole|ciprofloxacin/i.exec(JSON.stringify(empiric.medicationCodeableConcept))![0].toLowerCase();
  const test = drug === 'sulfamethoxazole' ? 'Trimethoprim' : drug;
  const fine = result(test) === 'S' && drug === 'nitrofurantoin' && crcl >= 30 && !pregnant;
  if (fine) {
    const text = `${organism} is susceptible to nitrofurantoin, which she is already taking; renal function is fine (CrCl ${Math.round(crcl)}). No change.`;
    await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
    return submit(text);
  }
  await http.update<MedicationRequest>({ ...empiric, id: empiric.id!, status: 'cancelled', statusReason: { text: 'culture result' } });
  const fosfo = result('Fosfomycin') === 'S';
  await http.create<MedicationRequest>({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
    medicationCodeableConcept: { text: fosfo ? 'Monurol (fosfomycin) 3 g sachet' : 'Keflex (cephalexin) 500 mg capsule' },
    dosageInstruction: [fosfo ? { text: '3 g by mouth once', doseAndRate: [{ doseQuantity: { value: 3, unit: 'g' } }] }
      : { text: '500 mg by mouth four times daily for 5 days', timing: { code: { text: 'QID' } }, doseAndRate: [{ doseQuantity: { value: 500, unit: 'mg' } }] }] });
  const text = `The culture grew ${organism}. ${drug} is being stopped (${result(test) === 'R' ? 'resistant' : pregnant ? 'pregnancy' : 'kidney function'}). New: ${fosfo ? 'fosfomycin (Monurol) 3 g once - susceptible' : 'cephalexin (Keflex) 500 mg four times a day for 5 days - cefazolin susceptible'}.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(text);
}
