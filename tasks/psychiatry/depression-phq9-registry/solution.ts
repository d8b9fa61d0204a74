// Reference solution: find the active MDD problem-list entries, dedupe by patient, take each patient's PHQ-9 history
// and judge on the most recent score by effective time.
import type { Condition, Observation } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { referenceId } from '../../../harness/fhir-client.ts';
import { effectiveTime } from '../../../graders/lib/index.ts';

export default async function solution({ fhir, finish }: SolutionContext): Promise<void> {
  const conditions = await fhir.search<Condition>('Condition', { code: 'http://snomed.info/sct|370143000', 'clinical-status': 'active', category: 'problem-list-item', _count: 200 });
  await fhir.search('Condition', { code: 'http://hl7.org/fhir/sid/icd-10-cm|F33.1', 'clinical-status': 'active', category: 'problem-list-item', _count: 200 });
  const cohort = [...new Set(conditions.map((c) => referenceId(c.subject?.reference, 'Patient')).filter((p): p is string => !!p))].sort();
  const patients: { id: string; phq9: number; date: string }[] = [];
  for (const id of cohort) {
    await fhir.read('Patient', id);
    const scores = await fhir.search<Observation>('Observation', { patient: id, code: 'http://loinc.org|44261-6', _sort: '-date' });
    await fhir.search('MedicationRequest', { patient: id, status: 'active' });
    const latest = scores.filter((o) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error')
      .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)))[0];
    if (latest && latest.valueQuantity!.value! >= 10) patients.push({ id, phq9: latest.valueQuantity!.value!, date: effectiveTime(latest).slice(0, 10) });
  }
  await finish(JSON.stringify({ cohort: cohort.length, count: patients.length, patients }));
}
