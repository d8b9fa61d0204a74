// Uses "> 10" for "10 or higher": drops a patient whose latest score is exactly 10 (moderate).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, Observation } from '@medplum/fhirtypes';

export const description = 'threshold > 10 instead of >= 10';
export const catches = ['patients_listed', 'count_correct'];

const MDD = (c: Condition) => (c.code?.coding ?? []).some((x) => (x.system === 'http://snomed.info/sct' && ['370143000', '36923009', '66344007'].includes(x.code ?? '')) || (x.system === 'http://hl7.org/fhir/sid/icd-10-cm' && /^F3[23]/.test(x.code ?? '')));
const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.issued ?? '');

export default async function ({ http, submit }: CaseContext): Promise<void> {
  const problems = await http.search<Condition>('Condition', { category: 'problem-list-item', 'clinical-status': 'active', _count: 500 });
  const cohort = [...new Set(problems.filter(MDD).map((c) => c.subject!.reference!.split('/')[1]!))];
  const patients: { id: string; phq9: number }[] = [];
  for (const id of cohort) {
    const scores = await http.search<Observation>('Observation', { patient: id, code: 'http://loinc.org|44261-6' });
    const latest = scores.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined).sort((a, b) => when(b) - when(a))[0];
    if (latest && latest.valueQuantity!.value! > 10) patients.push({ id, phq9: latest.valueQuantity!.value! });
  }
  await submit({ cohort: cohort.length, count: patients.length, patients });
}
