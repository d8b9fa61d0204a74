// A clinician who edits the existing allopurinol order in place (a new dose on the same order), orders a uric acid by
// LOINC with a date four weeks out, and answers "SU ... - above target" or "... - at target".
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'changes the allopurinol order in place; LOINC recheck in 4 weeks';

const newest = (list: Observation[]) => list.filter((o) => o.valueQuantity?.value !== undefined).sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''))[0];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const urate = newest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|3084-1' }))!;
  const egfr = newest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3' }))?.valueQuantity?.value ?? 90;
  const orders = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => /allopurinol/i.test(JSON.stringify(o.medicationCodeableConcept)));
  const u = urate.valueQuantity!.value!;
  if (u < 6) {
    await submit(`SU ${u} mg/dL - at target, no change to allopurinol.`);
    return;
  }
  const o = orders[0]!;
  const q = o.dosageInstruction?.[0]?.doseAndRate?.[0]?.doseQuantity;
  const strength = Number(/(\d+)\s*mg/i.exec(JSON.stringify(o.medicationCodeableConcept))?.[1] ?? '100');
  const current = q?.value !== undefined && /mg|milligram/i.test(q.unit ?? '') ? q.value : (q?.value ?? 1) * strength;
  const next = current + (egfr < 30 ? 50 : 100);
  await http.update({
    ...o, id: o.id!,
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '519', display: 'allopurinol' }] },
    dosageInstruction: [{ text: `${next} mg PO daily`, timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: next, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }] }],
  });
  await http.create({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    code: { coding: [{ system: 'http://loinc.org', code: '3084-1', display: 'Urate [Mass/volume] in Serum or Plasma' }] },
    occurrenceDateTime: new Date(Date.parse(now) + 28 * 86_400_000).toISOString(),
  });
  await submit(`SU ${u} mg/dL - above target. Allopurinol changed to ${next} mg daily; repeat urate in 4 weeks.`);
}
