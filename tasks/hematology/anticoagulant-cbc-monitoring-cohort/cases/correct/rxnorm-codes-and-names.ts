// Searches active orders by the RxNorm concepts of each anticoagulant (ingredient, clinical drugs and brands), adds
// free-text orders found by name, and checks hemoglobin with a date-bounded search; answers with {id} objects.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'RxNorm code search (IN/SCD/BN) plus free text by name; date-bounded hemoglobin search; {id} entries';

const RX = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const CODES = ['11289', '855332', '202421', '405155', '1364430', '1364445', '1364435', '1364436', '1114195', '1114198', '1232082', '1232086', '1114199', '1599538', '1599543', '1599551', '1599555', '1037042', '1037045', '1037179', '1037046'];
const NAMES = /warfarin|coumadin|jantoven|apixaban|eliquis|rivaroxaban|xarelto|edoxaban|savaysa|dabigatran|pradaxa/i;

export default async function ({ http, now, submit }: CaseContext): Promise<void> {
  const coded = await http.search<MedicationRequest>('MedicationRequest', { status: 'active', code: CODES.map((c) => `${RX}|${c}`).join(','), _count: 200 });
  const all = await http.search<MedicationRequest>('MedicationRequest', { status: 'active', _count: 500 });
  const textOnly = all.filter((o) => !o.medicationCodeableConcept?.coding?.length && NAMES.test(o.medicationCodeableConcept?.text ?? ''));
  const patients = [...new Set([...coded, ...textOnly].map((o) => o.subject!.reference!.split('/')[1]!))].sort();
  const since = new Date(Date.parse(now) - 182 * 86400_000).toISOString();
  const gaps: string[] = [];
  for (const p of patients) {
    const hgb = await http.search<Observation>('Observation', { patient: p, code: 'http://loinc.org|718-7,http://loinc.org|30313-1,http://ehr-gym.example/fhir/CodeSystem/flowsheet|HGB', date: `ge${since}` });
    if (!hgb.some((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined && Date.parse(o.effectiveDateTime ?? '') <= Date.parse(now))) gaps.push(p);
  }
  await submit({ anticoagulated: patients.length, withoutHemoglobin6mo: gaps.length, patients: gaps.map((id) => ({ id })) });
}
