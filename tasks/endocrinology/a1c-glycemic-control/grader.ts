// Grader: the expected value is the chart's most recent HbA1c by effective instant (LOINC or the local code, entered-in-
// error results excluded); "at goal" is below the 7.0 % the question names (ADA 2024 rec. 6.5a).
import type { Patient } from '@medplum/fhirtypes';
import type { Check, SelectContext } from '../../../contracts/task.ts';
import { ageOn, fail, fetchedAll, latestObservation, matchNumber, matchYesNo, quantityOf, verdict } from '../../../graders/lib/index.ts';
import { A1C, GOAL_PERCENT, LESS_STRINGENT_PERCENT, OLDER_ADULT_AGE } from './facts.ts';

/** Variants: a latest HbA1c exists, and the answer does not hinge on choosing the < 7 % or an individualised < 8 % goal. */
export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  const a1c = quantityOf(await latestObservation(fhir, patient, A1C));
  if (!a1c) return false;
  const { birthDate } = await fhir.read<Patient>('Patient', patient);
  const older = !birthDate || ageOn(birthDate, now) >= OLDER_ADULT_AGE;
  return !(older && a1c.value >= GOAL_PERCENT && a1c.value < LESS_STRINGENT_PERCENT);
}

export const checks: Record<string, Check> = {
  retrieved_latest_a1c: async ({ fhir, patient, log }) => {
    const latest = await latestObservation(fhir, patient, A1C);
    if (!latest) return fail('the chart holds no HbA1c');
    return verdict(fetchedAll(log, [`Observation/${latest.id}`], 'latest HbA1c'));
  },
  latest_a1c_value: async ({ fhir, patient, answer }) => {
    const a1c = quantityOf(await latestObservation(fhir, patient, A1C));
    if (!a1c) return fail('the chart holds no HbA1c');
    return verdict(matchNumber(answer, { value: a1c.value, unit: '%', tolerance: { absolute: 0.05 }, fields: ['hba1c', 'a1c'], near: ['a1c'], window: 40 }));
  },
  goal_judgement: async ({ fhir, patient, answer }) => {
    const a1c = quantityOf(await latestObservation(fhir, patient, A1C));
    if (!a1c) return fail('the chart holds no HbA1c');
    return verdict(matchYesNo(answer, a1c.value < GOAL_PERCENT, {
      fields: ['atGoal', 'at_goal'],
      yes: ['at goal', 'at target', 'is at goal', 'meets the goal', 'below goal', 'below 7', 'controlled'],
      no: ['not at goal', 'above goal', 'above target', 'not at target', 'above 7', 'uncontrolled', 'not controlled'],
    }));
  },
};
