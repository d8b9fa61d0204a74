// Fills every missing pillar without looking at the limits: empagliflozin at eGFR 17, spironolactone at K 5.3.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'starts every missing pillar regardless of eGFR and potassium';
export const catches = ['gdmt_orders'];
export const mustFail = 'some';

const FS = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const latest = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;
const text = (o: MedicationRequest) => `${o.medicationCodeableConcept?.text ?? ''} ${(o.medicationCodeableConcept?.coding ?? []).map((c) => c.display).join(' ')}`;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,${FS}|EGFR` })).valueQuantity!.value!;
  const k = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|2823-3,${FS}|K` })).valueQuantity!.value!;
  const missing: string[] = [];
  if (!meds.some((o) => /gliflozin|farxiga|jardiance/i.test(text(o)))) {
    missing.push('SGLT2 inhibitor');
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1545653', display: 'empagliflozin' }] },
      dosageInstruction: [{ text: '10 mg by mouth once daily', doseAndRate: [{ doseQuantity: { value: 10, unit: 'mg' } }] }] });
  }
  if (!meds.some((o) => /spironolactone|eplerenone/i.test(text(o)))) {
    missing.push('MRA');
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '313096', display: 'spironolactone 25 MG Oral Tablet' }] },
      dosageInstruction: [{ text: '25 mg by mouth once daily', doseAndRate: [{ doseQuantity: { value: 25, unit: 'mg' } }] }] });
  }
  await submit(JSON.stringify({ missing, ordered: missing.join(' and '), egfr, potassium: k }));
}
