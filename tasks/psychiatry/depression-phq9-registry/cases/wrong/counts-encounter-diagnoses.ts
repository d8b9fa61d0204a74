// Counts every MDD Condition (encounter diagnoses and duplicate entries too) as the cohort size.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, Observation } from '@medplum/fhirtypes';

export const description = 'cohort = number of MDD Condition entries of any category (not distinct problem-list patients)';
export const catches = ['cohort_size'];

const MDD = (c: Condition) => (c.code?.coding ?? []).some((x) => (x.system === 'http://snomed.info/sct' && ['370143000', '36923009', '66344007'].includes(x.code ?? '')) || (x.system === 'http://hl7.org/fhir/sid/icd-10-cm' && /^F3[23]/.test(x.code ?? '')));
const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.issued ?? '');

export default async function ({ http, submit }: CaseContext): Promise<void> {
  const all = (await http.search<Condition>('Condition', { 'clinical-status': 'active', _count: 500 })).filter(MDD);
  const ids = [...new Set(all.filter((c) => c.category?.some((x) => x.coding?.some((y) => y.code === 'problem-list-item'))).map((c) => c.subject!.reference!.split('/')[1]!))];
  const patients: { id: string; phq9: number }[] = [];
  for (const id of ids) {
    const scores = await http.search<Observation>('Observation', { patient: id, code: 'http://loinc.org|44261-6' });
    const latest = scores.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined).sort((a, b) => when(b) - when(a))[0];
    if (latest && latest.valueQuantity!.value! >= 10) patients.push({ id, phq9: latest.valueQuantity!.value! });
  }
  await submit({ cohort: all.length, count: patients.length, patients });
}
