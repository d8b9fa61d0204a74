// Reference solutions. REST (default): the whole active problem list, type 2 diabetes under SNOMED CT or ICD-10-CM
// E11.*, each patient's age on today's date, then their active medication orders; a statin is recognised by its
// ingredients (any RxNorm code, brand or free text, through graders/lib/drugs). Views (alternativeSolutions.views):
// Patient, Condition and MedicationRequest SQL on FHIR views via ViewDefinition/$run, joined here.
import type { CodeableConcept, Condition, MedicationRequest, Patient } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { referenceId } from '../../../contracts/fhir-client.ts';
import { drugIngredientNames, runView, viewDefinition as view } from '../../../graders/lib/index.ts';
import { ACTIVE_STATUS, MAX_AGE, MIN_AGE, ORDER_INTENTS, STATIN_INGREDIENTS } from './facts.ts';

const isT2dm = (system: string | undefined, code: string | undefined) =>
  (system === 'http://snomed.info/sct' && code === '44054006') || (system === 'http://hl7.org/fhir/sid/icd-10-cm' && /^E11(\.|$)/.test(code ?? ''));
const onProblemList = (c: Condition) => !!c.category?.some((x) => x.coding?.some((y) => y.code === 'problem-list-item'))
  && !!c.clinicalStatus?.coding?.some((x) => x.code === 'active')
  && !c.verificationStatus?.coding?.some((x) => x.code === 'entered-in-error' || x.code === 'refuted');

/** Whole years on the calendar date of now. */
function age(birthDate: string, now: string): number {
  const [y, m, d] = birthDate.split('-').map(Number);
  const [ny, nm, nd] = now.slice(0, 10).split('-').map(Number);
  return ny - y - (nm < m || (nm === m && nd < (d || 1)) ? 1 : 0);
}
const eligibleAge = (birth: string | undefined | null, now: string) => !!birth && age(birth, now) >= MIN_AGE && age(birth, now) <= MAX_AGE;
const statin = (concept: CodeableConcept | undefined) => drugIngredientNames(concept).some((n) => STATIN_INGREDIENTS.includes(n));

function answer(rows: { patient: string; onStatin: boolean }[]): string {
  return JSON.stringify({
    eligible: rows.length, onStatin: rows.filter((r) => r.onStatin).length,
    withoutStatin: rows.filter((r) => !r.onStatin).map((r) => `Patient/${r.patient}`),
  });
}

export default async function solution({ fhir, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Practitioner', task.requester.reference.split('/')[1]);
  const problems = await fhir.search<Condition>('Condition', { category: 'problem-list-item', 'clinical-status': 'active', _count: 500 }, { maxPages: 1000 });
  const ids = [...new Set(problems.filter((c) => onProblemList(c) && (c.code?.coding ?? []).some((x) => isT2dm(x.system, x.code)))
    .map((c) => referenceId(c.subject?.reference, 'Patient')).filter((p): p is string => !!p))].sort();
  const rows: { patient: string; onStatin: boolean }[] = [];
  for (const patient of ids) {
    const p = await fhir.read<Patient>('Patient', patient);
    if (!eligibleAge(p.birthDate, now)) continue;
    const orders = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: ACTIVE_STATUS, _count: 200 });
    rows.push({ patient, onStatin: orders.some((o) => o.status === ACTIVE_STATUS && ORDER_INTENTS.includes(o.intent) && statin(o.medicationCodeableConcept)) });
  }
  await finish(answer(rows));
}

export const alternativeSolutions = {
  views: async ({ fhir, now, task, finish }: SolutionContext): Promise<void> => {
    await fhir.read('Practitioner', task.requester.reference.split('/')[1]);
    const people = await runView<{ id: string; birth: string | null }>(fhir, view('person', 'Patient', [['id', 'getResourceKey()'], ['birth', 'birthDate']]));
    const base = view('dm', 'Condition', [['patient', 'subject.getReferenceKey(Patient)']], [
      "category.coding.where(code = 'problem-list-item').exists()",
      "clinicalStatus.coding.where(code = 'active').exists()",
      "verificationStatus.coding.where(code = 'entered-in-error' or code = 'refuted').empty()",
    ]);
    const dm = await runView<{ patient: string; system: string | null; code: string | null }>(fhir, {
      ...base, select: [...base.select, { forEach: 'code.coding', column: [{ name: 'system', path: 'system' }, { name: 'code', path: 'code' }] }],
    });
    const orders = view('orders', 'MedicationRequest', [['id', 'getResourceKey()'], ['patient', 'subject.getReferenceKey(Patient)'], ['intent', 'intent'], ['text', 'medication.ofType(CodeableConcept).text']], [`status = '${ACTIVE_STATUS}'`]);
    const rows = await runView<{ id: string; patient: string; intent: string; text: string | null; system: string | null; code: string | null }>(fhir, {
      ...orders, select: [...orders.select, { forEachOrNull: 'medication.ofType(CodeableConcept).coding', column: [{ name: 'system', path: 'system' }, { name: 'code', path: 'code' }] }],
    });
    const onStatin = new Set(rows.filter((r) => ORDER_INTENTS.includes(r.intent) && statin({
      ...(r.text ? { text: r.text } : {}), coding: r.system && r.code ? [{ system: r.system, code: r.code }] : [],
    })).map((r) => r.patient));
    const birth = new Map(people.map((p) => [p.id, p.birth]));
    const eligible = [...new Set(dm.filter((d) => isT2dm(d.system ?? undefined, d.code ?? undefined)).map((d) => d.patient))].filter((p) => eligibleAge(birth.get(p), now)).sort();
    await finish(answer(eligible.map((patient) => ({ patient, onStatin: onStatin.has(patient) }))));
  },
};
