// Reference solutions. REST (default): type 2 diabetes problem-list entries, each patient's age, then their active
// medication orders, statins recognised by RxNorm ingredient or by name for free-text orders. Views
// (alternativeSolutions.views): Patient, Condition and MedicationRequest SQL on FHIR views via ViewDefinition/$run.
import type { Condition, MedicationRequest, Patient } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { referenceId } from '../../../harness/fhir-client.ts';
import { ACTIVE_PROBLEM_WHERE, ageOn, isActiveProblem, isType2Diabetes, runView, TYPE2_DIABETES_WHERE, viewDefinition as view } from '../../../graders/lib/index.ts';
import { isActiveOrder, isStatin, MAX_AGE, MIN_AGE, STATIN_NAME, STATINS } from './grader.ts';

const eligibleAge = (age: number) => age >= MIN_AGE && age <= MAX_AGE;

function answer(rows: { patient: string; onStatin: boolean }[]): string {
  return JSON.stringify({
    eligible: rows.length, onStatin: rows.filter((r) => r.onStatin).length,
    withoutStatin: rows.filter((r) => !r.onStatin).map((r) => `Patient/${r.patient}`),
  });
}

export default async function solution({ fhir, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Practitioner', task.requester.reference.split('/')[1]);
  const dm = await fhir.search<Condition>('Condition', { code: 'http://snomed.info/sct|44054006', category: 'problem-list-item', 'clinical-status': 'active', _count: 200 });
  const ids = [...new Set(dm.filter((c) => isType2Diabetes(c) && isActiveProblem(c)).map((c) => referenceId(c.subject?.reference, 'Patient')!))].sort();
  const rows: { patient: string; onStatin: boolean }[] = [];
  for (const patient of ids) {
    const p = await fhir.read<Patient>('Patient', patient);
    if (!eligibleAge(ageOn(p.birthDate!, now))) continue;
    const orders = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active', _count: 200 });
    rows.push({ patient, onStatin: orders.some((o) => isActiveOrder(o) && isStatin(o)) });
  }
  await finish(answer(rows));
}

export const alternativeSolutions = {
  views: async ({ fhir, now, task, finish }: SolutionContext): Promise<void> => {
    await fhir.read('Practitioner', task.requester.reference.split('/')[1]);
    const people = await runView<{ id: string; birth: string | null }>(fhir, view('person', 'Patient', [['id', 'getResourceKey()'], ['birth', 'birthDate']]));
    const dm = await runView<{ patient: string }>(fhir, view('dm', 'Condition', [['patient', 'subject.getReferenceKey(Patient)']], [
      TYPE2_DIABETES_WHERE, ...ACTIVE_PROBLEM_WHERE,
    ]));
    const codes = STATINS.ingredients.map((c) => `'${c}'`).join(' | ');
    const statins = await runView<{ patient: string; coded: boolean; text: string | null }>(fhir, view('statin', 'MedicationRequest', [
      ['patient', 'subject.getReferenceKey(Patient)'],
      ['coded', `medication.ofType(CodeableConcept).coding.where(system = 'http://www.nlm.nih.gov/research/umls/rxnorm' and (code in (${codes}))).exists()`],
      ['text', 'medication.ofType(CodeableConcept).text'],
    ], ["status = 'active'", "intent = 'order' or intent = 'original-order' or intent = 'instance-order' or intent = 'plan'"]));
    const birth = new Map(people.map((p) => [p.id, p.birth]));
    const onStatin = new Set(statins.filter((s) => s.coded || STATIN_NAME.test(s.text ?? '')).map((s) => s.patient));
    const eligible = [...new Set(dm.map((d) => d.patient))].filter((p) => { const b = birth.get(p); return !!b && eligibleAge(ageOn(b, now)); }).sort();
    await finish(answer(eligible.map((patient) => ({ patient, onStatin: onStatin.has(patient) }))));
  },
};
