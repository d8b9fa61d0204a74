// Reference solutions. REST (default): read the active problem list page by page, keep major depressive disorder
// under SNOMED CT or ICD-10-CM, dedupe by patient, then read each patient's PHQ-9 history and judge on the most recent
// valid score by effective instant. Views (alternativeSolutions.views): the problem list and all PHQ-9 scores from two
// SQL on FHIR views run with ViewDefinition/$run, joined here; the entries and latest scores found are then read by id.
import type { Condition, Observation } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { referenceId } from '../../../contracts/fhir-client.ts';
import { runView, viewDefinition as view } from '../../../graders/lib/index.ts';
import { ICD10CM, MDD_ICD10, MDD_SNOMED, MODERATE_FROM, PHQ9, SNOMED } from './facts.ts';

const isMddCoding = (system: string | undefined, code: string | undefined) =>
  (system === SNOMED && MDD_SNOMED.includes(code ?? '')) || (system === ICD10CM && MDD_ICD10.test(code ?? ''));
const onProblemList = (c: Condition) => !!c.category?.some((x) => x.coding?.some((y) => y.code === 'problem-list-item'))
  && !!c.clinicalStatus?.coding?.some((x) => x.code === 'active')
  && !c.verificationStatus?.coding?.some((x) => x.code === 'entered-in-error' || x.code === 'refuted');
const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.effectivePeriod?.start ?? o.effectiveInstant ?? o.issued ?? '');
const valid = (o: Observation) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error' && o.status !== 'cancelled';

function answer(cohort: string[], latest: Map<string, { value: number; date: string }>): string {
  const patients = cohort.filter((p) => (latest.get(p)?.value ?? -1) >= MODERATE_FROM).map((id) => ({ id, phq9: latest.get(id)!.value, date: latest.get(id)!.date }));
  return JSON.stringify({ cohort: cohort.length, count: patients.length, patients });
}

export default async function solution({ fhir, finish }: SolutionContext): Promise<void> {
  const problems = await fhir.search<Condition>('Condition', { category: 'problem-list-item', 'clinical-status': 'active', _count: 500 }, { maxPages: 1000 });
  const cohort = [...new Set(problems.filter((c) => onProblemList(c) && (c.code?.coding ?? []).some((x) => isMddCoding(x.system, x.code)))
    .map((c) => referenceId(c.subject?.reference, 'Patient')).filter((p): p is string => !!p))].sort();
  const latest = new Map<string, { value: number; date: string }>();
  for (const id of cohort) {
    const scores = await fhir.search<Observation>('Observation', { patient: id, code: `${PHQ9.system}|${PHQ9.code}`, _sort: '-date' });
    const newest = scores.filter(valid).sort((a, b) => when(b) - when(a))[0];
    if (newest) latest.set(id, { value: newest.valueQuantity!.value!, date: new Date(when(newest)).toISOString().slice(0, 10) });
  }
  await finish(answer(cohort, latest));
}

const EFFECTIVE = '(effective.ofType(dateTime) | effective.ofType(Period).start | effective.ofType(instant) | issued).first()';

export const alternativeSolutions = {
  views: async ({ fhir, finish }: SolutionContext): Promise<void> => {
    const base = view('problems', 'Condition', [['id', 'getResourceKey()'], ['patient', 'subject.getReferenceKey(Patient)']], [
      "category.coding.where(code = 'problem-list-item').exists()",
      "clinicalStatus.coding.where(code = 'active').exists()",
      "verificationStatus.coding.where(code = 'entered-in-error' or code = 'refuted').empty()",
    ]);
    const rows = await runView<{ id: string; patient: string | null; system: string | null; code: string | null }>(fhir, {
      ...base, select: [...base.select, { forEach: 'code.coding', column: [{ name: 'system', path: 'system' }, { name: 'code', path: 'code' }] }],
    });
    const mdd = rows.filter((r) => r.patient && isMddCoding(r.system ?? undefined, r.code ?? undefined));
    const phq9 = await runView<{ id: string; patient: string; value: number; effective: string }>(fhir, view('phq9', 'Observation', [
      ['id', 'getResourceKey()'], ['patient', 'subject.getReferenceKey(Patient)'], ['value', 'value.ofType(Quantity).value', 'decimal'], ['effective', EFFECTIVE],
    ], [
      `code.coding.where(system = '${PHQ9.system}' and code = '${PHQ9.code}').exists()`,
      "status != 'entered-in-error' and status != 'cancelled'",
      'value.ofType(Quantity).value.exists()',
    ]));
    const cohort = [...new Set(mdd.map((c) => c.patient!))].sort();
    const newest = new Map<string, { id: string; t: number; value: number; date: string }>();
    for (const r of phq9) {
      const t = Date.parse(r.effective);
      const seen = newest.get(r.patient);
      if (!seen || t > seen.t) newest.set(r.patient, { id: r.id, t, value: r.value, date: new Date(t).toISOString().slice(0, 10) });
    }
    // The views found the entries and scores; open each one cited, as a clinician would.
    for (const id of new Set(mdd.map((c) => c.id))) await fhir.read('Condition', id);
    for (const p of cohort) if (newest.has(p)) await fhir.read('Observation', newest.get(p)!.id);
    await finish(answer(cohort, new Map(cohort.filter((p) => newest.has(p)).map((p) => [p, newest.get(p)!]))));
  },
};
