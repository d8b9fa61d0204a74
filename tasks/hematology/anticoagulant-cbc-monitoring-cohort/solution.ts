// Reference solution: page through every active medication order, keep the oral anticoagulants (by RxNorm
// ingredient or, for free-text orders, by name), then look up each patient's hemoglobin results by LOINC and the
// local flowsheet code and keep those with none in the 182 days before now.
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { referenceId } from '../../../harness/fhir-client.ts';
import { effectiveTime } from '../../../graders/lib/index.ts';
import { isAnticoagulant } from './grader.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

export default async function solution({ fhir, now, finish }: SolutionContext): Promise<void> {
  await fhir.read('Practitioner', 's1-prac-hematology-1');
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { status: 'active', _count: 500 }, { maxPages: 1000 });
  const patients = [...new Set(active.filter(isAnticoagulant).map((o) => referenceId(o.subject?.reference, 'Patient')!))].sort();
  const from = Date.parse(now) - 182 * 86400_000;
  const gaps: string[] = [];
  for (const patient of patients) {
    await fhir.read('Patient', patient);
    const hgb = await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|718-7,${FLOWSHEET}|HGB`, _sort: '-date', _count: 50 });
    const recent = hgb.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
      .some((o) => { const t = Date.parse(effectiveTime(o)); return t >= from && t <= Date.parse(now); });
    if (!recent) gaps.push(patient);
  }
  await finish(JSON.stringify({ anticoagulated: patients.length, withoutHemoglobin6mo: gaps.length, patients: gaps.map((p) => `Patient/${p}`) }));
}
