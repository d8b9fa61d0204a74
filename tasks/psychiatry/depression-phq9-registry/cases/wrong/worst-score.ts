// Judges each patient on the highest PHQ-9 ever recorded instead of the latest one (lists patients now in remission).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, Observation } from '@medplum/fhirtypes';

export const description = 'highest PHQ-9 on file instead of the most recent';
export const catches = ['patients_listed', 'count_correct'];

const MDD = (c: Condition) => (c.code?.coding ?? []).some((x) => (x.system === 'http://snomed.info/sct' && ['370143000', '36923009', '66344007'].includes(x.code ?? '')) || (x.system === 'http://hl7.org/fhir/sid/icd-10-cm' && /^F3[23]/.test(x.code ?? '')));

export default async function ({ http, submit }: CaseContext): Promise<void> {
  const problems = await http.search<Condition>('Condition', { category: 'problem-list-item', 'clinical-status': 'active', _count: 500 });
  const cohort = [...new Set(problems.filter(MDD).map((c) => c.subject!.reference!.split('/')[1]!))];
  const patients: { id: string; phq9: number }[] = [];
  for (const id of cohort) {
    const scores = (await http.search<Observation>('Observation', { patient: id, code: 'http://loinc.org|44261-6' })).filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined);
    const worst = Math.max(-1, ...scores.map((o) => o.valueQuantity!.value!));
    if (worst >= 10) patients.push({ id, phq9: worst });
  }
  await submit({ cohort: cohort.length, count: patients.length, patients });
}
