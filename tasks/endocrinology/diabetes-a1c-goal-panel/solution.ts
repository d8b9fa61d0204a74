// Reference solutions. REST (default): the panel by general-practitioner, the whole active problem list filtered to
// type 2 diabetes under SNOMED CT or ICD-10-CM, then each member's A1c history by LOINC and the local flowsheet code,
// judged on the latest valid result in the 365-day window by effective instant. Views (alternativeSolutions.views):
// the same from three SQL on FHIR views (Patient, Condition, Observation) run with ViewDefinition/$run, joined here.
import type { Condition, Observation, Patient } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { referenceId } from '../../../contracts/fhir-client.ts';
import { percentOf, runView, viewDefinition as view } from '../../../graders/lib/index.ts';
import { A1C, GOAL_BELOW, HIGH_FROM, T2DM_ICD10, T2DM_SNOMED, WINDOW_DAYS } from './facts.ts';

const t2dm = (system?: string | null, code?: string | null) => (system === 'http://snomed.info/sct' && code === T2DM_SNOMED) || (system === 'http://hl7.org/fhir/sid/icd-10-cm' && T2DM_ICD10.test(code ?? ''));
const onProblemList = (c: Condition) => !!c.category?.some((x) => x.coding?.some((y) => y.code === 'problem-list-item'))
  && !!c.clinicalStatus?.coding?.some((x) => x.code === 'active')
  && !c.verificationStatus?.coding?.some((x) => x.code === 'entered-in-error' || x.code === 'refuted');
const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.effectivePeriod?.start ?? o.effectiveInstant ?? o.issued ?? '');
const A1C_PARAM = A1C.flatMap((s) => s.codes.map((c) => `${s.system}|${c}`)).join(',');

function answer(rows: { patient: string; a1c: number | null }[]): string {
  const atGoal = rows.filter((r) => r.a1c !== null && r.a1c < GOAL_BELOW).length;
  return JSON.stringify({
    cohort: rows.length, atGoal, percentAtGoal: percentOf(atGoal, rows.length),
    a1c8OrAbove: rows.filter((r) => r.a1c !== null && r.a1c >= HIGH_FROM).map((r) => `Patient/${r.patient}`),
    latest: rows,
  });
}

export default async function solution({ fhir, now, task, finish }: SolutionContext): Promise<void> {
  const pcp = task.requester.reference;
  await fhir.read('Practitioner', pcp.split('/')[1]);
  const panel = await fhir.search<Patient>('Patient', { 'general-practitioner': pcp, _count: 500 });
  const mine = new Set(panel.filter((p) => p.generalPractitioner?.some((g) => g.reference === pcp)).map((p) => p.id!));
  const problems = await fhir.search<Condition>('Condition', { category: 'problem-list-item', 'clinical-status': 'active', _count: 500 }, { maxPages: 1000 });
  const cohort = [...new Set(problems.filter((c) => onProblemList(c) && (c.code?.coding ?? []).some((x) => t2dm(x.system, x.code)))
    .map((c) => referenceId(c.subject?.reference, 'Patient')).filter((p): p is string => !!p && mine.has(p)))].sort();
  const to = Date.parse(now);
  const from = to - WINDOW_DAYS * 86400_000;
  const rows: { patient: string; a1c: number | null; date?: string }[] = [];
  for (const patient of cohort) {
    const results = await fhir.search<Observation>('Observation', { patient, code: A1C_PARAM, _sort: '-date', _count: 100 });
    const latest = results.filter((o) => o.status !== 'entered-in-error' && o.status !== 'cancelled' && o.valueQuantity?.value !== undefined && when(o) >= from && when(o) <= to)
      .sort((a, b) => when(b) - when(a))[0];
    rows.push({ patient, a1c: latest?.valueQuantity?.value ?? null, ...(latest ? { date: new Date(when(latest)).toISOString().slice(0, 10) } : {}) });
  }
  await finish(answer(rows));
}

export const alternativeSolutions = {
  views: async ({ fhir, now, task, finish }: SolutionContext): Promise<void> => {
    const pcp = task.requester.reference.split('/')[1];
    await fhir.read('Practitioner', pcp);
    const panel = await runView<{ id: string; gp: string | null }>(fhir, view('panel', 'Patient', [['id', 'getResourceKey()'], ['gp', 'generalPractitioner.getReferenceKey(Practitioner)']]));
    const base = view('dm', 'Condition', [['patient', 'subject.getReferenceKey(Patient)']], [
      "category.coding.where(code = 'problem-list-item').exists()",
      "clinicalStatus.coding.where(code = 'active').exists()",
      "verificationStatus.coding.where(code = 'entered-in-error' or code = 'refuted').empty()",
    ]);
    const dm = await runView<{ patient: string; system: string | null; code: string | null }>(fhir, {
      ...base, select: [...base.select, { forEach: 'code.coding', column: [{ name: 'system', path: 'system' }, { name: 'code', path: 'code' }] }],
    });
    const codes = A1C.map((s) => `(system = '${s.system}' and code = '${s.codes[0]}')`).join(' or ');
    const a1c = await runView<{ patient: string; value: number; effective: string }>(fhir, view('a1c', 'Observation', [['patient', 'subject.getReferenceKey(Patient)'], ['value', 'value.ofType(Quantity).value', 'decimal'], ['effective', 'effective.ofType(dateTime)']], [
      `code.coding.where(${codes}).exists()`,
      "status != 'entered-in-error' and status != 'cancelled'",
      'value.ofType(Quantity).value.exists()',
    ]));
    const mine = new Set(panel.filter((p) => p.gp === pcp).map((p) => p.id));
    const cohort = [...new Set(dm.filter((d) => t2dm(d.system, d.code)).map((d) => d.patient).filter((p) => mine.has(p)))].sort();
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
