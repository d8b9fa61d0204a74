// A clinician who reads the A1c history (the lab's LOINC and its local code), skips results entered in error, and
// answers in a sentence, value first, with a trailing period.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Observation } from '@medplum/fhirtypes';

export const description = 'reads every HbA1c (LOINC and local code), answers in prose';

const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.issued ?? '');

export default async function ({ http, patient, submit }: CaseContext): Promise<void> {
  const results = await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|4548-4,http://ehr-gym.example/fhir/CodeSystem/flowsheet|A1C' });
  const latest = results.filter((o) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error')
    .sort((a, b) => when(b) - when(a))[0]!;
  const value = latest.valueQuantity!.value!;
  await submit(`Most recent A1c is ${value}%. ${value < 7 ? 'At goal (< 7%).' : 'Not at goal; above the 7% target.'}`);
}
