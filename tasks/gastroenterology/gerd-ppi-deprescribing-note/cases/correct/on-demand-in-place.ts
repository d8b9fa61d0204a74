// Changes the existing order in place to on-demand use (asNeededBoolean), the AGA's other step-down path.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'rewrites the daily order as omeprazole 20 mg as needed; leaves it untouched where an indication is charted';

const latest = (list: Observation[]) => list.filter((o) => o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const problems = await http.search<Condition>('Condition', { patient });
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const hgb = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|718-7' }));
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3' }));
  const ppi = meds.filter((o) => /omeprazole/i.test(o.medicationCodeableConcept?.text ?? ''));
  const indication = problems.find((c) => /barrett|stricture|hemorrhage|bleeding/i.test(c.code?.text ?? ''));
  if (!indication) {
    for (const o of ppi) {
      await http.update({ ...o, id: o.id!, dosageInstruction: [{ text: 'Take 1 capsule (20 mg) by mouth once daily as needed for heartburn', asNeededBoolean: true, doseAndRate: [{ doseQuantity: { value: 20, unit: 'mg' } }] }] });
    }
  }
  const text = [
    `GERD (omeprazole since ${(ppi[0]?.authoredOn ?? '').slice(0, 4)}). Hemoglobin ${hgb.valueQuantity!.value} g/dL; eGFR ${egfr.valueQuantity!.value} mL/min.`,
    indication ? `Assessment: ${indication.code?.text}. Keep taking omeprazole every day; it should not be stopped.`
      : 'Assessment: no ongoing need for daily acid suppression. Plan: discontinue scheduled omeprazole; use omeprazole 20 mg on demand for breakthrough symptoms. If daily symptoms return, see us again.',
  ].join('\n');
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(indication ? 'No - keep the daily omeprazole given the indication.' : 'Yes: stop daily omeprazole, use it on demand.');
}
