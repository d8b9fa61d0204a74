// Asks the server for the newest result first, opens it, and answers in prose with a US date and the IFCC value
// beside the percentage.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Observation } from '@medplum/fhirtypes';

export const description = 'newest-first search, reads the result; prose with a US date and mmol/mol';

export default async function ({ http, patient, submit }: CaseContext): Promise<void> {
  const newest = await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|4548-4,http://ehr-gym.example/fhir/CodeSystem/flowsheet|A1C', _sort: '-date' });
  const first = newest.find((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)!;
  const latest = await http.read<Observation>('Observation', first.id!);
  const value = latest.valueQuantity!.value!;
  const [y, m, d] = (latest.effectiveDateTime ?? '').slice(0, 10).split('-');
  const ifcc = Math.round((value - 2.15) * 10.929);
  await submit(value < 7
    ? `HbA1c ${value}% (${ifcc} mmol/mol) on ${m}/${d}/${y}: yes, at goal.`
    : `HbA1c ${value}% (${ifcc} mmol/mol) on ${m}/${d}/${y}: no, not at goal - above the < 7% target.`);
}
