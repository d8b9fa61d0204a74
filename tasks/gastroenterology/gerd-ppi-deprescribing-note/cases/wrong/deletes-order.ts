// Deletes the omeprazole order (history lost) where it de-prescribes, and switches to daily pantoprazole elsewhere
// by deleting too.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'deletes the omeprazole order instead of stopping it';
export const catches = ['ppi_orders_match_decision'];

const latest = (list: Observation[]) => list.filter((o) => o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search('Condition', { patient });
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const hgb = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|718-7' }));
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3' }));
  const ppi = meds.filter((o) => /omeprazole/i.test(o.medicationCodeableConcept?.text ?? ''));
  for (const o of ppi) await http.delete('MedicationRequest', o.id!);
  const text = `GERD, omeprazole since ${(ppi[0]?.authoredOn ?? '').slice(0, 4)}. Hemoglobin ${hgb.valueQuantity!.value} g/dL; eGFR ${egfr.valueQuantity!.value}.\nPlan: stop omeprazole; if symptoms recur, use it as needed.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit('Stopped omeprazole.');
}
