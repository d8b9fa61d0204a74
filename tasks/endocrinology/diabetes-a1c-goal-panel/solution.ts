// Reference solutions. REST (default): the panel by general-practitioner, the active type 2 diabetes problem-list
// entries, then each member's A1c history by LOINC and the local flowsheet code, judged on the latest result in the
// 365-day window by effective instant. Views (alternativeSolutions.views): the same cohort from three SQL on FHIR
// views (Patient, Condition, Observation) run with ViewDefinition/$run and joined here.
import type { Condition, Observation, Patient } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { referenceId } from '../../../harness/fhir-client.ts';
import {
  ACTIVE_PROBLEM_WHERE, effectiveTime, FLOWSHEET, hasValue, isActiveProblem, isType2Diabetes, percentOf, recordedResults, runView, TYPE2_DIABETES_WHERE,
  viewDefinition as view,
} from '../../../graders/lib/index.ts';
import { A1C_CODES, GOAL, HIGH, WINDOW_DAYS } from './grader.ts';

function answer(rows: { patient: string; a1c: number | null }[]): string {
  const atGoal = rows.filter((r) => r.a1c !== null && r.a1c < GOAL).length;
  return JSON.stringify({
    cohort: rows.length, atGoal, percentAtGoal: percentOf(atGoal, rows.length),
    a1c8OrAbove: rows.filter((r) => r.a1c !== null && r.a1c >= HIGH).map((r) => `Patient/${r.patient}`),
    latest: rows,
  });
}

export default async function solution({ fhir, now, task, finish }: SolutionContext): Promise<void> {
  const pcp = task.requester.reference;
  await fhir.read('Practitioner', pcp.split('/')[1]);
  const panel = await fhir.search<Patient>('Patient', { 'general-practitioner': pcp, _count: 200 });
  const mine = new Set(panel.map((p) => p.id!));
  const dm = await fhir.search<Condition>('Condition', { code: 'http://snomed.info/sct|44054006', category: 'problem-list-item', 'clinical-status': 'active', _count: 200 });
  const cohort = [...new Set(dm.filter((c) => isType2Diabetes(c) && isActiveProblem(c)).map((c) => referenceId(c.subject?.reference, 'Patient')!).filter((p) => mine.has(p)))].sort();
  const rows: { patient: string; a1c: number | null; date?: string }[] = [];
  for (const patient of cohort) {
    const results = await fhir.search<Observation>('Observation', { patient, code: A1C_CODES, _sort: '-date', _count: 100 });
    const latest = recordedResults(results, undefined, { before: now, days: WINDOW_DAYS }).find(hasValue);
    rows.push({ patient, a1c: latest?.valueQuantity?.value ?? null, ...(latest ? { date: effectiveTime(latest).slice(0, 10) } : {}) });
  }
  await finish(answer(rows));
}

export const alternativeSolutions = {
  views: async ({ fhir, now, task, finish }: SolutionContext): Promise<void> => {
    const pcp = task.requester.reference.split('/')[1];
    await fhir.read('Practitioner', pcp);
    const panel = await runView<{ id: string; gp: string | null }>(fhir, view('panel', 'Patient', [['id', 'getResourceKey()'], ['gp', 'generalPractitioner.getReferenceKey(Practitioner)']]));
    const dm = await runView<{ patient: string }>(fhir, view('dm', 'Condition', [['patient', 'subject.getReferenceKey(Patient)']], [
      TYPE2_DIABETES_WHERE, ...ACTIVE_PROBLEM_WHERE,
    ]));
    const a1c = await runView<{ patient: string; value: number; effective: string }>(fhir, view('a1c', 'Observation', [['patient', 'subject.getReferenceKey(Patient)'], ['value', 'value.ofType(Quantity).value', 'decimal'], ['effective', 'effective.ofType(dateTime)']], [
      `code.coding.where((system = 'http://loinc.org' and code = '4548-4') or (system = '${FLOWSHEET}' and code = 'A1C')).exists()`,
      "status != 'entered-in-error' and status != 'cancelled'",
      'value.ofType(Quantity).value.exists()',
    ]));
    const mine = new Set(panel.filter((p) => p.gp === pcp).map((p) => p.id));
    const cohort = [...new Set(dm.map((d) => d.patient).filter((p) => mine.has(p)))].sort();
    const to = Date.parse(now);
    const from = to - WINDOW_DAYS * 86400_000;
    const latest = new Map<string, { t: number; value: number }>();
    for (const r of a1c) {
      const t = Date.parse(r.effective);
      if (t < from || t > to) continue;
      const seen = latest.get(r.patient);
      if (!seen || t > seen.t) latest.set(r.patient, { t, value: r.value });
    }
    await finish(answer(cohort.map((patient) => ({ patient, a1c: latest.get(patient)?.value ?? null }))));
  },
};
