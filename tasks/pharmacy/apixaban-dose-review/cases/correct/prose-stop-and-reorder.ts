// A pharmacist who answers in prose and replaces a wrong dose by cancelling the old order and writing a new one as
// the RxNorm clinical drug with a "1 tablet" dose and a BID timing code.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'prose answer; cancels the old order and re-orders the SCD as 1 tablet BID';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient });
  const results = await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2160-0,http://loinc.org|29463-7' });
  const newest = (code: string) => results.filter((o) => o.code?.coding?.some((c) => c.code === code)).sort((a, b) => Date.parse(b.effectiveDateTime!) - Date.parse(a.effectiveDateTime!))[0];
  const kg = newest('29463-7').valueQuantity!.value!;
  const crq = newest('2160-0').valueQuantity!;
  const cr = crq.unit === 'umol/L' ? crq.value! / 88.4 : crq.value!;
  const b = new Date(p.birthDate!);
  const n = new Date(now);
  const age = n.getUTCFullYear() - b.getUTCFullYear() - (n.getUTCMonth() < b.getUTCMonth() || (n.getUTCMonth() === b.getUTCMonth() && n.getUTCDate() < b.getUTCDate()) ? 1 : 0);
  const reasons = [age >= 80 && `age ${age}`, kg <= 60 && `weight ${kg} kg`, cr >= 1.5 && `creatinine ${cr.toFixed(2)}`].filter(Boolean);
  const label = reasons.length >= 2 ? 2.5 : 5;
  const order = meds.find((m) => m.status === 'active' && /apixaban/i.test(JSON.stringify(m.medicationCodeableConcept)))!;
  const strength = /2\.5/.test(JSON.stringify(order.medicationCodeableConcept)) ? 2.5 : 5;
  const q = order.dosageInstruction?.[0]?.doseAndRate?.[0]?.doseQuantity;
  const current = q && /tab/i.test(q.unit ?? '') ? q.value! * strength : q?.value ?? strength;
  let verdictText = `The current dose of ${current} mg twice daily is appropriate; no change.`;
  if (current !== label) {
    await http.update<MedicationRequest>({ ...order, id: order.id!, status: 'cancelled', statusReason: { text: 'wrong dose for label criteria' } });
    const scd = label === 5 ? { code: '1364445', display: 'apixaban 5 MG Oral Tablet' } : { code: '1364435', display: 'apixaban 2.5 MG Oral Tablet' };
    await http.create<MedicationRequest>({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', ...scd }] },
      dosageInstruction: [{ timing: { code: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-GTSAbbreviation', code: 'BID' }] } },
        route: { coding: [{ system: 'http://snomed.info/sct', code: '26643006', display: 'Oral route' }] },
        doseAndRate: [{ doseQuantity: { value: 1, unit: 'tablet' } }] }] });
    verdictText = `The current ${current} mg twice daily is not appropriate; I recommend ${label} mg twice daily and changed the order.`;
  }
  const answer = `Dose-reduction criteria met: ${reasons.length} of 3 (${reasons.join(', ') || 'none'}). Serum creatinine ${cr.toFixed(2)} mg/dL, weight ${kg} kg, age ${age}. ${verdictText}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`Apixaban review. ${answer}`).toString('base64') } }] });
  await submit(answer);
}
