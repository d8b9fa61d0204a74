// Reads the chart and gets the indication backwards: stops the PPI in Barrett's esophagus / after a bleeding ulcer, and
// keeps it in uncomplicated GERD.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'stops the PPI where Barrett/bleeding ulcer is charted, keeps it where nothing indicates it';
export const catches = ['ppi_orders_match_decision', 'recommendation_direction'];

const latest = (list: Observation[]) => list.filter((o) => o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const problems = await http.search<Condition>('Condition', { patient });
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const hgb = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|718-7' }));
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3' }));
  const ppi = meds.filter((o) => /omeprazole/i.test(o.medicationCodeableConcept?.text ?? ''));
  const complicated = problems.some((c) => /barrett|hemorrhage|stricture/i.test(c.code?.text ?? ''));
  if (complicated) for (const o of ppi) await http.update({ ...o, id: o.id!, status: 'stopped', statusReason: { text: 'de-prescribing' } });
  const text = [
    `GERD, omeprazole since ${(ppi[0]?.authoredOn ?? '').slice(0, 4)}. Hemoglobin ${hgb.valueQuantity!.value} g/dL; eGFR ${egfr.valueQuantity!.value}.`,
    complicated ? 'Plan: stop omeprazole. If symptoms recur, call.' : 'Plan: continue omeprazole 20 mg daily long term.',
  ].join('\n');
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(complicated ? 'Stop omeprazole.' : 'Continue omeprazole daily.');
}
