// The review's keyword trap: the note carries every word a keyword grader looks for (taper, on-demand, recur) but
// recommends continuing high-dose PPI indefinitely, and no order is changed. Right only where an indication exists.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'note mentions taper/on-demand/recurrence but recommends omeprazole 40 mg daily indefinitely; orders untouched';
export const catches = ['recommendation_direction', 'ppi_orders_match_decision'];
export const mustFail = 'some';

const latest = (list: Observation[]) => list.filter((o) => o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search('Condition', { patient });
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const hgb = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|718-7' }));
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3' }));
  const ppi = meds.find((o) => /omeprazole/i.test(o.medicationCodeableConcept?.text ?? ''));
  const text = [
    `GERD, omeprazole since ${(ppi?.authoredOn ?? '').slice(0, 4)}. Hemoglobin ${hgb.valueQuantity!.value} g/dL; eGFR ${egfr.valueQuantity!.value}.`,
    'A taper or on-demand use was considered, but symptoms would likely recur. Plan: continue omeprazole, increase to 40 mg daily, indefinitely.',
  ].join('\n');
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit('Continue omeprazole 40 mg daily indefinitely; taper not advised.');
}
