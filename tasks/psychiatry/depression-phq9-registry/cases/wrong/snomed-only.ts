// Looks MDD up under the one SNOMED CT concept only: misses diagnoses filed under ICD-10-CM or a child concept.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, Observation } from '@medplum/fhirtypes';

export const description = 'one code only (SNOMED 370143000): misses ICD-10-CM-only and child-concept MDD';
export const catches = ['cohort_size', 'patients_listed'];

const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.issued ?? '');

export default async function ({ http, submit }: CaseContext): Promise<void> {
  const found = await http.search<Condition>('Condition', { code: 'http://snomed.info/sct|370143000', category: 'problem-list-item', 'clinical-status': 'active' });
  const cohort = [...new Set(found.map((c) => c.subject!.reference!.split('/')[1]!))];
  const patients: { id: string; phq9: number }[] = [];
  for (const id of cohort) {
    const scores = await http.search<Observation>('Observation', { patient: id, code: 'http://loinc.org|44261-6' });
    const latest = scores.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined).sort((a, b) => when(b) - when(a))[0];
    if (latest && latest.valueQuantity!.value! >= 10) patients.push({ id, phq9: latest.valueQuantity!.value! });
  }
  await submit({ cohort: cohort.length, count: patients.length, patients });
}
