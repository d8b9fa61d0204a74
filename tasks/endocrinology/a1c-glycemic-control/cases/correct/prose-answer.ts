// A clinician who reads the A1c history and answers in a sentence, value first, with a trailing period.
import type { CaseContext } from '../../../../../harness/cases/http.ts';
import type { Observation } from '@medplum/fhirtypes';

export const description = 'reads every HbA1c, answers in prose';

export default async function ({ http, patient, submit }: CaseContext): Promise<void> {
  const results = await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|4548-4' });
  const latest = results.filter((o) => o.valueQuantity?.value !== undefined)
    .sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''))[0]!;
  const value = latest.valueQuantity!.value!;
  await submit(`Most recent A1c is ${value}%. ${value < 7 ? 'At goal (< 7%).' : 'Not at goal; above the 7% target.'}`);
}
