// Grader: the expected value is the chart's most recent HbA1c by effective time; the goal is < 7 % (ADA).
import type { Check } from '../../../harness/types.ts';
import { fail, fetchedAll, latestObservation, LOINC, matchNumber, matchYesNo, noWrites, quantityOf, verdict } from '../../../graders/lib/index.ts';

const A1C = [{ system: LOINC, codes: ['4548-4'] }];
const GOAL = 7;

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
    return verdict(matchYesNo(answer, a1c.value < GOAL, { fields: ['atGoal', 'at_goal'], yes: ['at goal', 'at target', 'is at goal', 'controlled'], no: ['not at goal', 'above goal', 'above target', 'not at target', 'uncontrolled'] }));
  },
  read_only: ({ log }) => verdict(noWrites(log)),
};
