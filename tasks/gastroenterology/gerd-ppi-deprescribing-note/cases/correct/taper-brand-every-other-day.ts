// A taper instead of an abrupt stop (AGA 2022 allows either): the daily order is stopped without a coded reason and a
// time-limited brand-name, text-only order steps down to every other day for 4 weeks. With Barrett's esophagus or a
// bleeding ulcer on the problem list the PPI is kept and the note says why.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'stops daily omeprazole and tapers with text-only "Prilosec OTC 20 mg every other day x 4 weeks"; keeps it where the chart holds an indication';

const latest = (list: Observation[]) => list.filter((o) => o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;
const INDICATION = /barrett|stricture|ulcer with hemorrhage|bleeding ulcer|hemorrhag/i;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const problems = await http.search<Condition>('Condition', { patient });
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const hgb = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|718-7' }));
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3' }));
  const ppi = meds.filter((o) => /omeprazole/i.test(o.medicationCodeableConcept?.text ?? ''));
  const indication = problems.find((c) => INDICATION.test(c.code?.text ?? ''));
  const year = (ppi[0]?.authoredOn ?? '').slice(0, 4);
  const facts = `GERD; omeprazole 20 mg daily since ${year}. Hemoglobin ${hgb.valueQuantity!.value} g/dL, eGFR ${egfr.valueQuantity!.value}.`;
  let plan: string;
  if (indication) {
    plan = `${indication.code?.text} is an indication for long-term acid suppression, so keep omeprazole 20 mg daily; do not taper.`;
  } else {
    for (const o of ppi) await http.update({ ...o, id: o.id!, status: 'stopped' });
    await http.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { text: 'Prilosec OTC 20 mg delayed-release tablet' },
      dosageInstruction: [{ text: '1 tablet by mouth every other day for 4 weeks, then stop', timing: { repeat: { frequency: 1, period: 2, periodUnit: 'd', boundsDuration: { value: 4, unit: 'wk', system: 'http://unitsofmeasure.org', code: 'wk' } } } }],
    });
    plan = 'Taper: Prilosec 20 mg every other day for 4 weeks, then off. Rebound heartburn may occur for a few weeks; if it recurs and persists, take it as needed.';
  }
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`GI e-consult.\n${facts}\nPlan: ${plan}`).toString('base64') } }] });
  await submit(indication ? `Keep omeprazole daily (${indication.code?.text}).` : 'Taper omeprazole off over 4 weeks (every other day), then stop.');
}
