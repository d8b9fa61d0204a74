// Over-cautious: stops metformin whenever eGFR is below 45 (KDIGO 2022 reduces it at 30-44; stopping loses control).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'stops metformin at eGFR 30-44 instead of reducing it';
export const catches = ['metformin_matches_egfr', 'dose_judgement'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const egfrs = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3,http://ehr-gym.example/fhir/CodeSystem/flowsheet|EGFR' }))
    .filter((o) => o.valueQuantity?.value !== undefined).sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''));
  const egfr = egfrs[0]!.valueQuantity!.value!;
  const orders = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' }))
    .filter((o) => /metformin|glucophage|861004/i.test(JSON.stringify(o.medicationCodeableConcept)));
  for (const o of egfr < 45 ? orders : []) {
    await http.read('MedicationRequest', o.id!);
    await http.request('PATCH', `MedicationRequest/${o.id}`, [{ op: 'replace', path: '/status', value: 'stopped' }]);
  }
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, code: { coding: [{ system: 'http://loinc.org', code: '51990-0' }] } });
  await submit({ egfr, dailyDoseMg: egfr < 45 ? 0 : 2000 });
}
