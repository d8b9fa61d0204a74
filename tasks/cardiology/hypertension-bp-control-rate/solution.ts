// Reference solutions. REST (default): hypertension problem-list entries, each patient's age, then the latest BP
// panel in the window by effective instant. Views (alternativeSolutions.views): Patient, Condition and BP-panel
// SQL on FHIR views run with ViewDefinition/$run, joined here.
import type { Condition, Observation, Patient } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { referenceId } from '../../../harness/fhir-client.ts';
import { ACTIVE_PROBLEM_WHERE, ageOn, FLOWSHEET, isActiveProblem, percentOf, recordedResults, runView, viewDefinition as view } from '../../../graders/lib/index.ts';
import { BP_CODES, hasBothPressures, isControlled, isHypertension, MAX_AGE, MIN_AGE, pressures, WINDOW_DAYS } from './grader.ts';

function answer(rows: { patient: string; controlled: boolean | number }[]): string {
  const controlled = rows.filter((r) => !!r.controlled).length;
  return JSON.stringify({
    denominator: rows.length, controlled, percentControlled: percentOf(controlled, rows.length),
    uncontrolled: rows.filter((r) => !r.controlled).map((r) => `Patient/${r.patient}`),
  });
}

export default async function solution({ fhir, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Practitioner', task.requester.reference.split('/')[1]);
  const htn = await fhir.search<Condition>('Condition', { code: 'http://snomed.info/sct|59621000,http://hl7.org/fhir/sid/icd-10-cm|I10', category: 'problem-list-item', 'clinical-status': 'active', _count: 200 });
  const ids = [...new Set(htn.filter((c) => isHypertension(c) && isActiveProblem(c)).map((c) => referenceId(c.subject?.reference, 'Patient')!))].sort();
  const from = Date.parse(now) - WINDOW_DAYS * 86400_000;
  const rows: { patient: string; controlled: boolean; bp?: string }[] = [];
  for (const patient of ids) {
    const p = await fhir.read<Patient>('Patient', patient);
    const age = ageOn(p.birthDate!, now);
    if (age < MIN_AGE || age > MAX_AGE) continue;
    const readings = await fhir.search<Observation>('Observation', { patient, code: BP_CODES, date: `ge${new Date(from).toISOString()}`, _sort: '-date', _count: 100 });
    const latest = recordedResults(readings, undefined, { before: now, days: WINDOW_DAYS }).find(hasBothPressures);
    const bp = latest ? pressures(latest) : undefined;
    rows.push({ patient, controlled: isControlled(latest), ...(bp ? { bp: `${bp.sbp}/${bp.dbp}` } : {}) });
  }
  await finish(answer(rows));
}

export const alternativeSolutions = {
  views: async ({ fhir, now, task, finish }: SolutionContext): Promise<void> => {
    await fhir.read('Practitioner', task.requester.reference.split('/')[1]);
    const people = await runView<{ id: string; birth: string | null }>(fhir, view('person', 'Patient', [['id', 'getResourceKey()'], ['birth', 'birthDate']]));
    const htn = await runView<{ patient: string }>(fhir, view('htn', 'Condition', [['patient', 'subject.getReferenceKey(Patient)']], [
      "code.coding.where((system = 'http://snomed.info/sct' and code = '59621000') or (system = 'http://hl7.org/fhir/sid/icd-10-cm' and code = 'I10')).exists()",
      ...ACTIVE_PROBLEM_WHERE,
    ]));
    const bp = await runView<{ patient: string; effective: string; sbp: number | null; dbp: number | null }>(fhir, view('bp', 'Observation', [
      ['patient', 'subject.getReferenceKey(Patient)'], ['effective', 'effective.ofType(dateTime)'],
      ['sbp', "component.where(code.coding.where(system = 'http://loinc.org' and code = '8480-6').exists()).value.ofType(Quantity).value.first()", 'decimal'],
      ['dbp', "component.where(code.coding.where(system = 'http://loinc.org' and code = '8462-4').exists()).value.ofType(Quantity).value.first()", 'decimal'],
    ], [
      `code.coding.where((system = 'http://loinc.org' and code = '85354-9') or (system = '${FLOWSHEET}' and code = 'BP')).exists()`,
      "status != 'entered-in-error' and status != 'cancelled'",
    ]));
    const birth = new Map(people.map((p) => [p.id, p.birth]));
    const cohort = [...new Set(htn.map((h) => h.patient))].filter((p) => { const b = birth.get(p); if (!b) return false; const age = ageOn(b, now); return age >= MIN_AGE && age <= MAX_AGE; }).sort();
    const to = Date.parse(now);
    const from = to - WINDOW_DAYS * 86400_000;
    const latest = new Map<string, { t: number; controlled: boolean }>();
    for (const r of bp) {
      const t = Date.parse(r.effective);
      if (r.sbp === null || r.dbp === null || t < from || t > to) continue;
      const seen = latest.get(r.patient);
      if (!seen || t > seen.t) latest.set(r.patient, { t, controlled: r.sbp < 140 && r.dbp < 90 });
    }
    await finish(answer(cohort.map((patient) => ({ patient, controlled: latest.get(patient)?.controlled ?? false }))));
  },
};
