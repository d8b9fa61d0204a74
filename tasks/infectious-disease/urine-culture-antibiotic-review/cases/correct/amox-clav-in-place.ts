// Edits the empiric order in place: amoxicillin-clavulanate (500/125 mg twice daily; the 875 mg tablet only at
// CrCl >= 30) where it tested susceptible and there is no penicillin allergy, otherwise cefuroxime 250 mg twice
// daily; the susceptible empiric nitrofurantoin at normal clearance is left alone.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { AllergyIntolerance, Condition, DiagnosticReport, MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'PUTs the empiric order to amoxicillin-clavulanate (renal strength) or cefuroxime';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  const report = (await http.search<DiagnosticReport>('DiagnosticReport', { patient, code: 'http://loinc.org|630-4' }))[0];
  const panel = await http.search<Observation>('Observation', { patient, _count: 200 });
  const mine = panel.filter((o) => report.result?.some((r) => r.reference === `Observation/${o.id}`));
  const res = (w: string) => mine.find((o) => (o.code?.text ?? '').toLowerCase().startsWith(w))?.interpretation?.[0]?.coding?.[0]?.code;
  const organism = mine.find((o) => o.valueCodeableConcept)?.valueCodeableConcept?.text ?? '';
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const allergies = await http.search<AllergyIntolerance>('AllergyIntolerance', { patient });
  await http.search<Condition>('Condition', { patient });
  const latest = (code: string) => panel.filter((o) => o.code?.coding?.[0]?.code === code).sort((a, b) => Date.parse(b.effectiveDateTime!) - Date.parse(a.effectiveDateTime!))[0]?.valueQuantity?.value;
  const age = Math.floor((Date.parse(now) - Date.parse(p.birthDate!)) / 31557600000);
  const crcl = ((140 - age) * latest('29463-7')!) / (72 * latest('2160-0')!) * 0.85;
  const pregnant = panel.some((o) => o.code?.coding?.[0]?.code === '11778-8');
  const empiric = meds.find((m) => /nitrofurantoin|sulfamethoxazole|ciprofloxacin/i.test(JSON.stringify(m.medicationCodeableConcept)))!;
  const isNitro = /nitrofurantoin/i.test(JSON.stringify(empiric.medicationCodeableConcept));
  if (isNitro && res('nitrofurantoin') === 'S' && crcl >= 30 && !pregnant) {
    await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`${organism} susceptible to nitrofurantoin; continue.`).toString('base64') } }] });
    return submit({ organism, antibiotic: 'nitrofurantoin', changed: false });
  }
  const pcnAllergy = /amoxicillin|penicillin/i.test(JSON.stringify(allergies.map((a) => a.code)));
  const augmentin = res('amoxicillin+clavulanate') === 'S' && !pcnAllergy;
  const medication = augmentin
    ? (crcl >= 30 ? { code: '562508', display: 'amoxicillin 875 MG / clavulanate 125 MG Oral Tablet' } : { code: '617296', display: 'amoxicillin 500 MG / clavulanate 125 MG Oral Tablet' })
    : { code: '309097', display: 'cefuroxime 250 MG Oral Tablet' };
  const current = await http.read<MedicationRequest>('MedicationRequest', empiric.id!);
  await http.update<MedicationRequest>({ ...current, id: current.id!, medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', ...medication }] },
    dosageInstruction: [{ text: `1 tablet by mouth twice daily for ${augmentin ? 7 : 5} days`, timing: { repeat: { frequency: crcl < 30 && !augmentin ? 1 : 2, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 1, unit: 'tablet' } }] }] });
  const name = augmentin ? 'amoxicillin-clavulanate' : 'cefuroxime';
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`${organism}: empiric therapy changed to ${name} (${augmentin ? 'amoxicillin+clavulanate S' : 'cefazolin S'}); previous ${JSON.stringify(empiric.medicationCodeableConcept?.text)} replaced.`).toString('base64') } }] });
  await submit({ organism, antibiotic: name, changed: true });
}
