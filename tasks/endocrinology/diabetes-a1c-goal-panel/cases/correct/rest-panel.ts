// The panel by general-practitioner, the problem list in full (SNOMED CT or ICD-10-CM), then each A1c history under both codes.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'REST: panel, problem list, A1c by LOINC and local code';

const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.issued ?? '');
const T2DM = (c: Condition) => (c.code?.coding ?? []).some((x) => (x.system === 'http://snomed.info/sct' && x.code === '44054006') || (x.system === 'http://hl7.org/fhir/sid/icd-10-cm' && /^E11/.test(x.code ?? '')));

export default async function ({ http, now, submit }: CaseContext): Promise<void> {
  const me = 'Practitioner/s1-prac-primary-care-1';
  const panel = new Set((await http.search<Patient>('Patient', { 'general-practitioner': me, _count: 500 })).map((p) => p.id!));
  const problems = await http.search<Condition>('Condition', { category: 'problem-list-item', 'clinical-status': 'active', _count: 500 });
  const cohort = [...new Set(problems.filter(T2DM).map((c) => c.subject!.reference!.split('/')[1]!))].filter((p) => panel.has(p)).sort();
  const to = Date.parse(now);
  const latest = new Map<string, number>();
  for (const p of cohort) {
    const results = await http.search<Observation>('Observation', { patient: p, code: 'http://loinc.org|4548-4,http://ehr-gym.example/fhir/CodeSystem/flowsheet|A1C' });
    const newest = results.filter((o) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error' && when(o) >= to - 365 * 86400_000 && when(o) <= to).sort((a, b) => when(b) - when(a))[0];
    if (newest) latest.set(p, newest.valueQuantity!.value!);
  }
  const atGoal = cohort.filter((p) => latest.has(p) && latest.get(p)! < 7).length;
  await submit({ cohort: cohort.length, atGoal, percentAtGoal: Math.round(1000 * atGoal / cohort.length) / 10, a1c8OrAbove: cohort.filter((p) => latest.has(p) && latest.get(p)! >= 8).map((p) => `Patient/${p}`) });
}
