// Reference solutions. REST (default): the whole active problem list, essential hypertension under SNOMED CT or
// ICD-10-CM, each patient's age on today's date, then the latest valid BP panel (LOINC or the local code) in the
// 365 days up to now, by effective instant. Views (alternativeSolutions.views): Patient, Condition and BP-panel SQL on
// FHIR views run with ViewDefinition/$run, joined here.
import type { Condition, Observation, Patient } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { referenceId } from '../../../contracts/fhir-client.ts';
import { percentOf, runView, viewDefinition as view } from '../../../graders/lib/index.ts';
import { BP_PANEL, DIASTOLIC, DIASTOLIC_BELOW, HYPERTENSION, LOINC, MAX_AGE, MIN_AGE, SYSTOLIC, SYSTOLIC_BELOW, WINDOW_DAYS } from './facts.ts';

const hypertension = (system?: string, code?: string) => HYPERTENSION.some((s) => s.system === system && s.codes.includes(code ?? ''));
const onProblemList = (c: Condition) => !!c.category?.some((x) => x.coding?.some((y) => y.code === 'problem-list-item'))
  && !!c.clinicalStatus?.coding?.some((x) => x.code === 'active')
  && !c.verificationStatus?.coding?.some((x) => x.code === 'entered-in-error' || x.code === 'refuted');
function age(birthDate: string, now: string): number {
  const [y, m, d] = birthDate.split('-').map(Number);
  const [ny, nm, nd] = now.slice(0, 10).split('-').map(Number);
  return ny - y - (nm < m || (nm === m && nd < (d || 1)) ? 1 : 0);
}
const inAgeRange = (birth: string | null | undefined, now: string) => !!birth && age(birth, now) >= MIN_AGE && age(birth, now) <= MAX_AGE;
const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.effectivePeriod?.start ?? o.effectiveInstant ?? o.issued ?? '');
const part = (o: Observation, code: string) => o.component?.find((c) => c.code.coding?.some((x) => x.system === LOINC && x.code === code))?.valueQuantity?.value;
const PANEL_PARAM = BP_PANEL.flatMap((s) => s.codes.map((c) => `${s.system}|${c}`)).join(',');

function answer(rows: { patient: string; controlled: boolean }[]): string {
  const controlled = rows.filter((r) => r.controlled).length;
  return JSON.stringify({
    denominator: rows.length, controlled, percentControlled: percentOf(controlled, rows.length),
    uncontrolled: rows.filter((r) => !r.controlled).map((r) => `Patient/${r.patient}`),
  });
}

export default async function solution({ fhir, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Practitioner', task.requester.reference.split('/')[1]);
  const problems = await fhir.search<Condition>('Condition', { category: 'problem-list-item', 'clinical-status': 'active', _count: 500 }, { maxPages: 1000 });
  const ids = [...new Set(problems.filter((c) => onProblemList(c) && (c.code?.coding ?? []).some((x) => hypertension(x.system, x.code)))
    .map((c) => referenceId(c.subject?.reference, 'Patient')).filter((p): p is string => !!p))].sort();
  const to = Date.parse(now);
  const from = to - WINDOW_DAYS * 86400_000;
  const rows: { patient: string; controlled: boolean }[] = [];
  for (const patient of ids) {
    const p = await fhir.read<Patient>('Patient', patient);
    if (!inAgeRange(p.birthDate, now)) continue;
    const readings = await fhir.search<Observation>('Observation', { patient, code: PANEL_PARAM, date: `ge${new Date(from).toISOString()}`, _sort: '-date', _count: 100 });
    const latest = readings.filter((o) => o.status !== 'entered-in-error' && o.status !== 'cancelled' && when(o) >= from && when(o) <= to && part(o, SYSTOLIC) !== undefined && part(o, DIASTOLIC) !== undefined)
      .sort((a, b) => when(b) - when(a))[0];
    rows.push({ patient, controlled: !!latest && part(latest, SYSTOLIC)! < SYSTOLIC_BELOW && part(latest, DIASTOLIC)! < DIASTOLIC_BELOW });
  }
  await finish(answer(rows));
}

export const alternativeSolutions = {
  views: async ({ fhir, now, task, finish }: SolutionContext): Promise<void> => {
    await fhir.read('Practitioner', task.requester.reference.split('/')[1]);
    const people = await runView<{ id: string; birth: string | null }>(fhir, view('person', 'Patient', [['id', 'getResourceKey()'], ['birth', 'birthDate']]));
    const base = view('htn', 'Condition', [['patient', 'subject.getReferenceKey(Patient)']], [
      "category.coding.where(code = 'problem-list-item').exists()",
      "clinicalStatus.coding.where(code = 'active').exists()",
      "verificationStatus.coding.where(code = 'entered-in-error' or code = 'refuted').empty()",
    ]);
    const htn = await runView<{ patient: string; system: string | null; code: string | null }>(fhir, {
      ...base, select: [...base.select, { forEach: 'code.coding', column: [{ name: 'system', path: 'system' }, { name: 'code', path: 'code' }] }],
    });
    const codes = BP_PANEL.map((s) => `(system = '${s.system}' and code = '${s.codes[0]}')`).join(' or ');
    const bp = await runView<{ patient: string; effective: string; sbp: number | null; dbp: number | null }>(fhir, view('bp', 'Observation', [
      ['patient', 'subject.getReferenceKey(Patient)'], ['effective', 'effective.ofType(dateTime)'],
      ['sbp', `component.where(code.coding.where(system = '${LOINC}' and code = '${SYSTOLIC}').exists()).value.ofType(Quantity).value.first()`, 'decimal'],
      ['dbp', `component.where(code.coding.where(system = '${LOINC}' and code = '${DIASTOLIC}').exists()).value.ofType(Quantity).value.first()`, 'decimal'],
    ], [`code.coding.where(${codes}).exists()`, "status != 'entered-in-error' and status != 'cancelled'"]));
    const birth = new Map(people.map((p) => [p.id, p.birth]));
    const cohort = [...new Set(htn.filter((h) => hypertension(h.system ?? undefined, h.code ?? undefined)).map((h) => h.patient))].filter((p) => inAgeRange(birth.get(p), now)).sort();
    const to = Date.parse(now);
    const from = to - WINDOW_DAYS * 86400_000;
    const latest = new Map<string, { t: number; controlled: boolean }>();
    for (const r of bp) {
      const t = Date.parse(r.effective);
      if (r.sbp === null || r.dbp === null || t < from || t > to) continue;
      const seen = latest.get(r.patient);
      if (!seen || t > seen.t) latest.set(r.patient, { t, controlled: r.sbp < SYSTOLIC_BELOW && r.dbp < DIASTOLIC_BELOW });
    }
    await finish(answer(cohort.map((patient) => ({ patient, controlled: latest.get(patient)?.controlled ?? false }))));
  },
};
