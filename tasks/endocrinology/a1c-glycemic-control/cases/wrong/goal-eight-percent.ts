// Reads the right result but judges it against < 8 % although the question asks about the < 7 % goal (and the
// variants are patients for whom < 7 % is the standard goal).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Observation } from '@medplum/fhirtypes';

export const description = 'right value, judged against < 8 % instead of the < 7 % asked about';
export const catches = ['goal_judgement'];
export const mustFail = 'some';

const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.issued ?? '');

export default async function ({ http, patient, submit }: CaseContext): Promise<void> {
  const results = await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|4548-4,http://ehr-gym.example/fhir/CodeSystem/flowsheet|A1C' });
  const latest = results.filter((o) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error').sort((a, b) => when(b) - when(a))[0]!;
  const value = latest.valueQuantity!.value!;
  await submit(JSON.stringify({ hba1c: value, atGoal: value < 8 }));
}
