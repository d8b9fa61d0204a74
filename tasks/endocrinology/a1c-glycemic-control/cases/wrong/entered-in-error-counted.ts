// Takes the newest entry whatever its status, so a result entered in error stands in for the valid latest one.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Observation } from '@medplum/fhirtypes';

export const description = 'newest entry regardless of status (counts an entered-in-error result)';
export const catches = ['latest_a1c_value'];
export const mustFail = 'some';

const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.issued ?? '');

export default async function ({ http, patient, submit }: CaseContext): Promise<void> {
  const results = await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|4548-4,http://ehr-gym.example/fhir/CodeSystem/flowsheet|A1C' });
  const latest = results.filter((o) => o.valueQuantity?.value !== undefined).sort((a, b) => when(b) - when(a))[0]!;
  const value = latest.valueQuantity!.value!;
  await submit(JSON.stringify({ hba1c: value, atGoal: value < 7 }));
}
