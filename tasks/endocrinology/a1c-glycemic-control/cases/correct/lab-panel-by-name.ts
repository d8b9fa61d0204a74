// Browses the patient's laboratory results and recognises HbA1c by its name, whatever code the lab filed it under;
// answers JSON with the value as a string with its unit and the judgement as "yes"/"no".
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Observation } from '@medplum/fhirtypes';

export const description = 'finds HbA1c by name among all lab results; JSON with "8.4 %" and "no"';

const names = (o: Observation) => [o.code.text, ...(o.code.coding ?? []).map((c) => c.display)].join(' ');
const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.issued ?? '');

export default async function ({ http, patient, submit }: CaseContext): Promise<void> {
  const labs = await http.search<Observation>('Observation', { patient, category: 'laboratory', _count: 200 });
  const a1c = labs.filter((o) => /\b(hb)?a1c\b|glycated h(a)?emoglobin/i.test(names(o)) && o.valueQuantity?.value !== undefined)
    .filter((o) => o.status === 'final' || o.status === 'amended' || o.status === 'corrected')
    .sort((a, b) => when(b) - when(a));
  const value = a1c[0]!.valueQuantity!.value!;
  await submit(JSON.stringify({ HbA1c: `${value} %`, atGoal: value < 7 ? 'yes' : 'no', comment: `Based on the result of ${a1c[0]!.effectiveDateTime?.slice(0, 10)}.` }));
}
