// Takes the oldest HbA1c instead of the latest (search order taken for recency).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Observation } from '@medplum/fhirtypes';

export const description = 'answers with the oldest HbA1c';
export const catches = ['latest_a1c_value'];

export default async function ({ http, patient, submit }: CaseContext): Promise<void> {
  const results = await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|4548-4', _sort: 'date' });
  const oldest = results.find((o) => o.valueQuantity?.value !== undefined)!;
  const value = oldest.valueQuantity!.value!;
  await submit(JSON.stringify({ hba1c: value, atGoal: value < 7 }));
}
