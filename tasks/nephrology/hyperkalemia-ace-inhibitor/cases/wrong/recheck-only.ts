// Reads the potassium correctly and rechecks it, but never changes a medication: fine at K 5.5-5.9 on lisinopril
// alone, wrong at K >= 6.0 (exposure must come down) and with a potassium supplement still running.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Observation } from '@medplum/fhirtypes';

export const description = 'only rechecks K, never changes a medication (even at K 6.1 or on a potassium supplement)';
export const catches = ['potassium_plan'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search('MedicationRequest', { patient, status: 'active' });
  const ks = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2823-3,http://ehr-gym.example/fhir/CodeSystem/flowsheet|K' }))
    .filter((o) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error')
    .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''));
  const k = ks[0]!.valueQuantity!.value!;
  if (k >= 5.5) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
      code: { coding: [{ system: 'http://loinc.org', code: '2823-3' }] }, occurrenceDateTime: new Date(Date.parse(now) + 86400_000).toISOString() });
  }
  await submit(`K ${k} mmol/L. No medication changes; ${k >= 5.5 ? 'repeat K tomorrow' : 'nothing further'}.`);
}
