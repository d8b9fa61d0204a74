// FHIR search by code in both systems (SNOMED CT concepts and the ICD-10-CM codes), filtered to problem-list items,
// deduplicated by patient; the latest PHQ-9 found with a newest-first search.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, Observation } from '@medplum/fhirtypes';

export const description = 'Condition search by SNOMED and ICD-10-CM codes, newest-first PHQ-9 per patient';

const SNOMED = ['370143000', '36923009', '66344007', '832007', '40379007', '18818009', '28475009'].map((c) => `http://snomed.info/sct|${c}`);
const ICD = ['F32.0', 'F32.1', 'F32.2', 'F32.3', 'F32.4', 'F32.5', 'F32.9', 'F33.0', 'F33.1', 'F33.2', 'F33.3', 'F33.40', 'F33.41', 'F33.42', 'F33.8', 'F33.9'].map((c) => `http://hl7.org/fhir/sid/icd-10-cm|${c}`);

export default async function ({ http, submit }: CaseContext): Promise<void> {
  const found = await http.search<Condition>('Condition', { code: [...SNOMED, ...ICD].join(','), category: 'problem-list-item', 'clinical-status': 'active', _count: 200 });
  const cohort = [...new Set(found.filter((c) => !c.verificationStatus?.coding?.some((x) => x.code === 'entered-in-error')).map((c) => c.subject!.reference!.split('/')[1]!))].sort();
  const patients: { id: string; phq9: number }[] = [];
  for (const id of cohort) {
    const newest = await http.search<Observation>('Observation', { patient: id, code: 'http://loinc.org|44261-6', _sort: '-date' });
    const latest = newest.find((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined);
    if (latest && latest.valueQuantity!.value! >= 10) patients.push({ id, phq9: latest.valueQuantity!.value! });
  }
  await submit({ cohort: cohort.length, count: patients.length, patients });
}
