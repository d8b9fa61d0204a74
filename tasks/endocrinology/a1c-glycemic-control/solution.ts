// Reference solution: find the most recent HbA1c by effective time (not list order) and compare it with 7 %.
import type { Observation } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { effectiveTime } from '../../../graders/lib/index.ts';

export default async function solution({ fhir, patient, finish }: SolutionContext): Promise<void> {
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  const results = await fhir.search<Observation>('Observation', { patient, code: 'http://loinc.org|4548-4', _sort: '-date' });
  const latest = results.filter((o) => o.valueQuantity?.value !== undefined)
    .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)))[0];
  const value = latest.valueQuantity!.value!;
  await finish(JSON.stringify({ hba1c: value, atGoal: value < 7, date: effectiveTime(latest).slice(0, 10) }));
}
