// A rheumatologist who writes the new allopurinol as whole tablets of an RxNorm SCD ("1 tablet" of 300 mg, "2
// tablets" of 100 mg) or in 'milligram', orders the recheck as CPT 84550 without a LOINC code, and answers in prose
// with the value followed by a full stop.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'titrates as SCD tablets or milligram; CPT uric acid recheck; prose answer "7.9 mg/dL."';

const RX = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const text = (o: MedicationRequest) => JSON.stringify(o.medicationCodeableConcept ?? {}).toLowerCase();
const newest = (list: Observation[]) => list.filter((o) => o.valueQuantity?.value !== undefined).sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''))[0];

/** mg per day of an allopurinol order as a pharmacist reads it: dose quantity in mg, or tablets x the strength in the name. */
function mgPerDay(o: MedicationRequest): number {
  const q = o.dosageInstruction?.[0]?.doseAndRate?.[0]?.doseQuantity;
  const strength = Number(/(\d+)\s*mg/i.exec(text(o))?.[1] ?? '100');
  if (q?.value !== undefined && /mg|milligram/i.test(q.unit ?? '')) return q.value;
  if (q?.value !== undefined) return q.value * strength;
  const tabs = Number(/take (\d+) tablet/i.exec(o.dosageInstruction?.[0]?.text ?? '')?.[1] ?? '1');
  return tabs * strength;
}

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const urate = newest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|3084-1' }))!;
  const egfr = newest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3' }));
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const allopurinol = meds.filter((o) => text(o).includes('allopurinol'));
  const u = urate.valueQuantity!.value!;
  const current = allopurinol.reduce((s, o) => s + mgPerDay(o), 0);
  if (u < 6) {
    await submit(`Uric acid is ${u} mg/dL. That is at target (under 6), so I left allopurinol at ${current} mg daily - no changes. Recheck in 6 months.`);
    return;
  }
  const step = (egfr?.valueQuantity?.value ?? 90) < 30 ? 50 : 100;
  const next = current + step;
  for (const o of allopurinol) await http.update({ ...o, id: o.id!, status: 'stopped', statusReason: { text: 'dose titration' } });
  const product = next % 300 === 0
    ? { coding: [{ system: RX, code: '197320', display: 'allopurinol 300 MG Oral Tablet' }], dose: { value: next / 300, unit: 'tablet' }, sig: `Take ${next / 300} tablet by mouth daily` }
    : next % 100 === 0
      ? { coding: [{ system: RX, code: '197319', display: 'allopurinol 100 MG Oral Tablet' }], dose: { value: next / 100, unit: 'tablet' }, sig: `Take ${next / 100} tablets by mouth daily` }
      : { coding: [{ system: RX, code: '519', display: 'allopurinol' }], dose: { value: next, unit: 'milligram' }, sig: `${next} milligram by mouth every day` };
  await http.create({
    resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { coding: product.coding },
    dosageInstruction: [{ text: product.sig, doseAndRate: [{ doseQuantity: product.dose }] }],
  });
  await http.create({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    code: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '84550', display: 'Uric acid; blood' }] },
    occurrenceDateTime: new Date(Date.parse(now) + 21 * 86_400_000).toISOString(),
  });
  await submit(`Serum uric acid ${u} mg/dL. Not at goal - still above 6. Allopurinol ${current} -> ${next} mg/day; uric acid again in 3 weeks.`);
}
