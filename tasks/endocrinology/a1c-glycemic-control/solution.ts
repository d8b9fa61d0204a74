// Reference solution: read the HbA1c history under both the LOINC and the laboratory's local code, drop entered-in-
// error results, take the most recent by effective instant (not list order) and compare it with the 7 % asked about.
import type { Observation } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { A1C, GOAL_PERCENT } from './facts.ts';

const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.effectivePeriod?.start ?? o.effectiveInstant ?? o.issued ?? '');

export default async function solution({ fhir, patient, finish }: SolutionContext): Promise<void> {
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  const code = A1C.flatMap((s) => s.codes.map((c) => `${s.system}|${c}`)).join(',');
  const results = await fhir.search<Observation>('Observation', { patient, code, _sort: '-date' });
  const latest = results.filter((o) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error' && o.status !== 'cancelled')
    .sort((a, b) => when(b) - when(a))[0];
  if (!latest) return finish('No HbA1c result on file.');
  const value = latest.valueQuantity!.value!;
  await finish(JSON.stringify({ hba1c: value, atGoal: value < GOAL_PERCENT, date: new Date(when(latest)).toISOString().slice(0, 10) }));
}
