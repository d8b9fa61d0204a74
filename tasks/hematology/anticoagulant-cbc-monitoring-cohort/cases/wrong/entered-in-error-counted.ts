// Accepts any hemoglobin entry in the window, including one entered in error.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'an entered-in-error hemoglobin counts as a check';
export const catches = ['gap_count', 'gap_patients'];

const OAC = /warfarin|coumadin|jantoven|apixaban|eliquis|rivaroxaban|xarelto|edoxaban|savaysa|dabigatran|pradaxa/i;
const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.issued ?? '');

export default async function ({ http, now, submit }: CaseContext): Promise<void> {
  const active = await http.search<MedicationRequest>('MedicationRequest', { status: 'active', _count: 500 });
  const patients = [...new Set(active.filter((o) => OAC.test([o.medicationCodeableConcept?.text, ...(o.medicationCodeableConcept?.coding ?? []).map((c) => c.display)].join(' ')))
    .map((o) => o.subject!.reference!.split('/')[1]!))];
  const from = Date.parse(now) - 182 * 86400_000;
  const gaps: string[] = [];
  for (const p of patients) {
    const hgb = await http.search<Observation>('Observation', { patient: p, code: 'http://loinc.org|718-7,http://ehr-gym.example/fhir/CodeSystem/flowsheet|HGB' });
    if (!hgb.some((o) => when(o) >= from)) gaps.push(p);
  }
  await submit({ anticoagulated: patients.length, withoutHemoglobin6mo: gaps.length, patients: gaps.map((p) => `Patient/${p}`) });
}
