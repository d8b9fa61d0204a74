// A cardiologist whose order writes the dose the way many EHRs do: the clinical drug (RxNorm SCD "apixaban 5 MG
// Oral Tablet" or the 2.5 mg one) with a dose of "1 tablet" and a BID timing code, no mg anywhere in the dosage.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'starts apixaban as the SCD with a dose of "1 tablet" BID';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  const snomed = (await http.search<Condition>('Condition', { patient }))
    .flatMap((c) => (c.code?.coding ?? []).filter((k) => k.system === 'http://snomed.info/sct').map((k) => k.code));
  const active = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const age = new Date(now).getUTCFullYear() - new Date(p.birthDate!).getUTCFullYear()
    - (now.slice(5, 10) < p.birthDate!.slice(5, 10) ? 1 : 0);
  const female = p.gender === 'female';
  const points: Record<string, number> = { '84114007': 1, '59621000': 1, '38341003': 1, '44054006': 1, '46635009': 1, '230690007': 2, '266257000': 2, '22298006': 1, '1755008': 1, '399957001': 1 };
  const groups = [['84114007'], ['59621000', '38341003'], ['44054006', '46635009'], ['230690007', '266257000'], ['22298006', '1755008', '399957001']];
  let score = (age >= 75 ? 2 : age >= 65 ? 1 : 0) + (female ? 1 : 0);
  for (const g of groups) { const hit = g.find((c) => snomed.includes(c)); if (hit) score += points[hit]; }
  const indicated = score >= (female ? 3 : 2);
  const on = active.find((m) => /apixaban|rivaroxaban|dabigatran|edoxaban|warfarin/i.test(JSON.stringify(m.medicationCodeableConcept)));
  let anticoagulant = on ? on.medicationCodeableConcept?.text ?? 'current' : 'none';
  if (!on && indicated) {
    const last = async (code: string) => (await http.search<Observation>('Observation', { patient, code: `http://loinc.org|${code}`, _sort: '-date', _count: 1 }))[0].valueQuantity!;
    const kg = (await last('29463-7')).value!;
    const cr = await last('2160-0');
    const mgdl = (cr.unit ?? '').includes('mol') ? cr.value! / 88.4 : cr.value!;
    const reduced = [age >= 80, kg <= 60, mgdl >= 1.5].filter(Boolean).length >= 2;
    const drug = reduced ? { code: '1364435', display: 'apixaban 2.5 MG Oral Tablet' } : { code: '1364445', display: 'apixaban 5 MG Oral Tablet' };
    await http.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', ...drug }] },
      dosageInstruction: [{ timing: { code: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-GTSAbbreviation', code: 'BID' }] } },
        route: { coding: [{ system: 'http://snomed.info/sct', code: '26643006', display: 'Oral route' }] },
        doseAndRate: [{ doseQuantity: { value: 1, unit: 'tablet', system: 'http://terminology.hl7.org/CodeSystem/v3-orderableDrugForm', code: 'TAB' } }] }],
    });
    anticoagulant = `${drug.display}, 1 tablet twice daily`;
  }
  const note = `Stroke risk: CHA2DS2-VASc ${score}. ${indicated ? `Oral anticoagulation recommended (${anticoagulant}).` : 'Oral anticoagulation not indicated.'}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ chadsvasc: score, anticoagulate: indicated, anticoagulant });
}
