// Reference solutions. REST (default): the active CKD stage 3 problem-list entries, then each patient's eGFR series
// (LOINC and local code) in the 2-year window and an OLS slope per patient. Views (alternativeSolutions.views):
// Condition and eGFR SQL on FHIR views run with ViewDefinition/$run, slopes computed here.
import type { Condition, Observation } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { referenceId } from '../../../harness/fhir-client.ts';
import { ACTIVE_PROBLEM_WHERE, FLOWSHEET, isActiveProblem, runView, viewDefinition as view } from '../../../graders/lib/index.ts';
import { EGFR_CODES, isCkdStage3, olsSlope, RAPID, series, WINDOW_DAYS, years } from './grader.ts';

function answer(rows: { patient: string; slope: number }[]): string {
  const mean = rows.reduce((s, r) => s + r.slope, 0) / rows.length;
  return JSON.stringify({
    patients: rows.length, meanSlope: Math.round(mean * 100) / 100,
    rapidProgressors: rows.filter((r) => r.slope < RAPID).map((r) => `Patient/${r.patient}`),
    slopes: rows.map((r) => ({ patient: r.patient, slope: Math.round(r.slope * 100) / 100 })),
  });
}

export default async function solution({ fhir, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Practitioner', task.requester.reference.split('/')[1]);
  const ckd = await fhir.search<Condition>('Condition', { code: 'http://snomed.info/sct|433144002', category: 'problem-list-item', 'clinical-status': 'active', _count: 200 });
  const ids = [...new Set(ckd.filter((c) => isCkdStage3(c) && isActiveProblem(c)).map((c) => referenceId(c.subject?.reference, 'Patient')!))].sort();
  const rows: { patient: string; slope: number }[] = [];
  for (const patient of ids) {
    await fhir.read('Patient', patient);
    const results = series(await fhir.search<Observation>('Observation', { patient, code: EGFR_CODES, _sort: 'date', _count: 200 }), now);
    if (results.length >= 2) rows.push({ patient, slope: olsSlope(results.map((o) => [years(o), o.valueQuantity!.value!])) });
  }
  await finish(answer(rows));
}

export const alternativeSolutions = {
  views: async ({ fhir, now, task, finish }: SolutionContext): Promise<void> => {
    await fhir.read('Practitioner', task.requester.reference.split('/')[1]);
    const ckd3 = await runView<{ patient: string }>(fhir, view('ckd3', 'Condition', [['patient', 'subject.getReferenceKey(Patient)']], [
      "code.coding.where((system = 'http://snomed.info/sct' and code = '433144002') or (system = 'http://hl7.org/fhir/sid/icd-10-cm' and code.startsWith('N18.3'))).exists()",
      ...ACTIVE_PROBLEM_WHERE,
    ]));
    const egfr = await runView<{ patient: string; value: number; effective: string }>(fhir, view('egfr', 'Observation', [['patient', 'subject.getReferenceKey(Patient)'], ['value', 'value.ofType(Quantity).value', 'decimal'], ['effective', 'effective.ofType(dateTime)']], [
      `code.coding.where((system = 'http://loinc.org' and code = '33914-3') or (system = '${FLOWSHEET}' and code = 'EGFR')).exists()`,
      "status != 'entered-in-error' and status != 'cancelled'",
      'value.ofType(Quantity).value.exists()',
    ]));
    const cohort = new Set(ckd3.map((c) => c.patient));
    const to = Date.parse(now);
    const from = to - WINDOW_DAYS * 86400_000;
    const points = new Map<string, [number, number][]>();
    for (const r of egfr) {
      const t = Date.parse(r.effective);
      if (!cohort.has(r.patient) || t < from || t > to) continue;
      points.set(r.patient, [...(points.get(r.patient) ?? []), [t / 86400_000 / 365.25, r.value]]);
    }
    const rows = [...points.entries()].filter(([, p]) => p.length >= 2).sort(([a], [b]) => (a < b ? -1 : 1)).map(([patient, p]) => ({ patient, slope: olsSlope(p) }));
    await finish(answer(rows));
  },
};
