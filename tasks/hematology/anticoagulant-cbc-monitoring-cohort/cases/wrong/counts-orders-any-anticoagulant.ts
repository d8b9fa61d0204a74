// Counts orders rather than patients and includes parenteral anticoagulants (enoxaparin).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'anticoagulated = number of anticoagulant orders, enoxaparin included';
export const catches = ['cohort_count'];

const AC = /warfarin|coumadin|apixaban|eliquis|rivaroxaban|xarelto|edoxaban|dabigatran|pradaxa|enoxaparin|lovenox|heparin/i;
const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.issued ?? '');

export default async function ({ http, now, submit }: CaseContext): Promise<void> {
  const orders = (await http.search<MedicationRequest>('MedicationRequest', { status: 'active', _count: 500 }))
    .filter((o) => AC.test([o.medicationCodeableConcept?.text, ...(o.medicationCodeableConcept?.coding ?? []).map((c) => c.display)].join(' ')));
  const patients = [...new Set(orders.map((o) => o.subject!.reference!.split('/')[1]!))];
  const from = Date.parse(now) - 182 * 86400_000;
  const gaps: string[] = [];
  for (const p of patients) {
    const hgb = await http.search<Observation>('Observation', { patient: p, code: 'http://loinc.org|718-7,http://ehr-gym.example/fhir/CodeSystem/flowsheet|HGB' });
    if (!hgb.some((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined && when(o) >= from)) gaps.push(p);
  }
  await submit({ anticoagulated: orders.length, withoutHemoglobin6mo: gaps.length, patients: gaps.map((p) => `Patient/${p}`) });
}
