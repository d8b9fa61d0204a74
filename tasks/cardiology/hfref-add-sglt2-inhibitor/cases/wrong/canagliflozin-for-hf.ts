// Right decisions, but the SGLT2 inhibitor it starts is canagliflozin, which has no HFrEF indication or trial.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'starts canagliflozin 100 mg as the SGLT2 inhibitor for HFrEF';
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
  let ordered = 'none';
  if (!meds.some((o) => /gliflozin|farxiga|jardiance/i.test(text(o)))) {
    missing.push('SGLT2 inhibitor');
    if (egfr >= 20) {
      await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
        medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1373463', display: 'canagliflozin 100 MG Oral Tablet' }] },
        dosageInstruction: [{ text: '100 mg by mouth once daily', doseAndRate: [{ doseQuantity: { value: 100, unit: 'mg' } }] }] });
      ordered = 'canagliflozin 100 mg daily';
    }
  }
  if (!meds.some((o) => /spironolactone|eplerenone/i.test(text(o)))) {
    missing.push('MRA');
    if (egfr > 30 && k < 5.0) {
      await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
        medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '313096', display: 'spironolactone 25 MG Oral Tablet' }] },
        dosageInstruction: [{ text: '25 mg by mouth once daily', doseAndRate: [{ doseQuantity: { value: 25, unit: 'mg' } }] }] });
      ordered = 'spironolactone 25 mg daily';
    }
  }
  await submit(JSON.stringify({ missing, ordered, egfr, potassium: k }));
}
