// Searches by the LOINC code only, so a latest result filed under the lab's local code is missed.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Observation } from '@medplum/fhirtypes';

export const description = 'LOINC-only search: misses a latest HbA1c carrying only the local code';
export const catches = ['latest_a1c_value', 'retrieved_latest_a1c'];
export const mustFail = 'some';

const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.issued ?? '');

export default async function ({ http, patient, submit }: CaseContext): Promise<void> {
  const results = await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|4548-4' });
  const latest = results.filter((o) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error').sort((a, b) => when(b) - when(a))[0]!;
  const value = latest.valueQuantity!.value!;
  await submit(JSON.stringify({ hba1c: value, atGoal: value < 7 }));
}
