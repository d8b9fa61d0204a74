// Writes a reduced order whenever eGFR is below 45 but never ends the full-dose order (two active metformin orders;
// below 30 metformin is still given).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'adds a 500 mg BID order below 45 and leaves the full-dose order active';
export const catches = ['metformin_matches_egfr', 'safe_writes'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const egfrs = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3,http://ehr-gym.example/fhir/CodeSystem/flowsheet|EGFR' }))
    .filter((o) => o.valueQuantity?.value !== undefined).sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''));
  const egfr = egfrs[0]!.valueQuantity!.value!;
  await http.search('MedicationRequest', { patient, status: 'active' });
  if (egfr < 45) {
    await http.create<MedicationRequest>({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '861007', display: 'metformin hydrochloride 500 MG Oral Tablet' }] },
      dosageInstruction: [{ timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 500, unit: 'mg', code: 'mg', system: 'http://unitsofmeasure.org' } }] }] });
  }
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, code: { coding: [{ system: 'http://loinc.org', code: '51990-0' }] } });
  await submit({ egfr, dailyDoseMg: egfr < 45 ? 1000 : 2000 });
}
