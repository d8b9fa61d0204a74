// Reads eGFR by LOINC only: misses results recorded under the local flowsheet code and acts on an older value.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'eGFR by LOINC only (misses the flowsheet-coded results)';
export const catches = ['metformin_matches_egfr', 'reviewed_egfr'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const egfrs = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3' }))
    .filter((o) => o.valueQuantity?.value !== undefined).sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''));
  const egfr = egfrs[0]!.valueQuantity!.value!;
  const orders = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' }))
    .filter((o) => /metformin|glucophage|861004/i.test(JSON.stringify(o.medicationCodeableConcept)));
  for (const o of orders) {
    if (egfr >= 45) break;
    await http.read('MedicationRequest', o.id!);
    await http.request('PATCH', `MedicationRequest/${o.id}`, [{ op: 'replace', path: '/status', value: 'stopped' }]);
  }
  if (egfr >= 30 && egfr < 45) {
    await http.create<MedicationRequest>({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { text: 'metformin 500 mg tablet' }, dosageInstruction: [{ text: '500 mg twice daily', timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 500, unit: 'mg', code: 'mg', system: 'http://unitsofmeasure.org' } }] }] });
  }
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, code: { coding: [{ system: 'http://loinc.org', code: '51990-0' }] } });
  await submit({ egfr, dailyDoseMg: egfr < 30 ? 0 : egfr < 45 ? 1000 : 2000 });
}
