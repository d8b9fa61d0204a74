// A short review: the culture and its panel in two searches, then orders, allergies, labs and problems; keeps the
// empiric drug when it is susceptible and nothing rules it out, otherwise stops it and starts cefpodoxime (cefazolin
// susceptible) by its ingredient code, 100 mg twice daily, once daily at CrCl < 30.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { AllergyIntolerance, Condition, DiagnosticReport, MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'cefpodoxime 100 mg by ingredient code when a change is needed, renal frequency, JSON';

const DRUGS = /nitrofurantoin|sulfamethoxazole|ciprofloxacin|levofloxacin|cephalexin|amoxicillin|fosfomycin/i;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  const report = (await http.search<DiagnosticReport>('DiagnosticReport', { patient, code: 'http://loinc.org|630-4' }))[0];
  const results = await http.search<Observation>('Observation', { patient, category: 'laboratory', _count: 100 });
  const inReport = results.filter((o) => report.result?.some((r) => r.reference === `Observation/${o.id}`));
  const sir = (drug: RegExp) => inReport.find((o) => drug.test(o.code?.text ?? ''))?.interpretation?.[0]?.coding?.[0]?.code;
  const organism = inReport.find((o) => o.valueCodeableConcept)?.valueCodeableConcept?.text ?? '';
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const allergies = await http.search<AllergyIntolerance>('AllergyIntolerance', { patient });
  const conditions = await http.search<Condition>('Condition', { patient });
  const cr = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2160-0', _sort: '-date', _count: 1 }))[0].valueQuantity!.value!;
  const kg = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|29463-7', _sort: '-date', _count: 1 }))[0].valueQuantity!.value!;
  const qtc = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|8636-3' }))[0]?.valueQuantity?.value ?? 0;
  await http.search('Observation', { patient, code: 'http://loinc.org|11778-8' });
  const age = Math.floor((Date.parse(now) - Date.parse(p.birthDate!)) / 31557600000);
  const crcl = ((140 - age) * kg) / (72 * cr) * 0.85;
  const pregnant = conditions.some((c) => /pregnan/i.test(JSON.stringify(c.code)));
  const empiric = meds.find((m) => DRUGS.test(JSON.stringify(m.medicationCodeableConcept)))!;
  const name = DRUGS.exec(JSON.stringify(empiric.medicationCodeableConcept))![0].toLowerCase();
  const allergyText = JSON.stringify(allergies.map((a) => a.code));
  const tests: Record<string, RegExp> = { nitrofurantoin: /nitrofurantoin/i, sulfamethoxazole: /sulfamethoxazole/i, ciprofloxacin: /ciprofloxacin/i };
  const keep = sir(tests[name] ?? /none/) === 'S' && !(name === 'nitrofurantoin' && crcl < 30) && !(pregnant && name !== 'cephalexin')
    && !new RegExp(name, 'i').test(allergyText) && !(name === 'ciprofloxacin') && qtc < 500;
  let antibiotic = name;
  if (!keep) {
    await http.update<MedicationRequest>({ ...empiric, id: empiric.id!, status: 'stopped' });
    await http.create<MedicationRequest>({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '20489', display: 'cefpodoxime' }] },
      dosageInstruction: [{ timing: { repeat: { frequency: crcl < 30 ? 1 : 2, period: 1, periodUnit: 'd', boundsDuration: { value: 5, unit: 'd' } } },
        doseAndRate: [{ doseQuantity: { value: 100, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }] }] });
    antibiotic = 'cefpodoxime';
  }
  const note = `Urine culture: ${organism}, cefazolin ${sir(/cefazolin/i)} (susceptible predicts oral cephalosporins). ${keep ? `Continue ${name}.` : `Stopped ${name}; started cefpodoxime 100 mg ${crcl < 30 ? 'daily' : 'BID'} x5 days.`}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ organism, antibiotic, changed: !keep });
}
