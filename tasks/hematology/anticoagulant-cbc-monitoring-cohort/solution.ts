// Reference solutions. REST (default): page through every active medication order, keep the oral anticoagulants
// (by RxNorm ingredient or, for free-text orders, by name), then look up each patient's hemoglobin results by LOINC
// and the local flowsheet code and keep those with none in the 182 days before now. Views
// (alternativeSolutions.views): active orders (one row per coding) and hemoglobin results from two SQL on FHIR views
// run with ViewDefinition/$run, joined here; the anticoagulant orders found are then read by id, as the evidence.
import type { CodeableConcept, Coding, MedicationRequest, Observation } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { referenceId } from '../../../harness/fhir-client.ts';
import { effectiveTime, runView, viewDefinition as view } from '../../../graders/lib/index.ts';
import { isAnticoagulant } from './grader.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

export default async function solution({ fhir, now, finish }: SolutionContext): Promise<void> {
  await fhir.read('Practitioner', 's1-prac-hematology-1');
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { status: 'active', _count: 500 }, { maxPages: 1000 });
  const patients = [...new Set(active.filter(isAnticoagulant).map((o) => referenceId(o.subject?.reference, 'Patient')!))].sort();
  const from = Date.parse(now) - 182 * 86400_000;
  const gaps: string[] = [];
  for (const patient of patients) {
    await fhir.read('Patient', patient);
    const hgb = await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|718-7,${FLOWSHEET}|HGB`, _sort: '-date', _count: 50 });
    const recent = hgb.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
      .some((o) => { const t = Date.parse(effectiveTime(o)); return t >= from && t <= Date.parse(now); });
    if (!recent) gaps.push(patient);
  }
  await finish(JSON.stringify({ anticoagulated: patients.length, withoutHemoglobin6mo: gaps.length, patients: gaps.map((p) => `Patient/${p}`) }));
}

const EFFECTIVE = '(effective.ofType(dateTime) | effective.ofType(Period).start | effective.ofType(instant) | issued).first()';

export const alternativeSolutions = {
  views: async ({ fhir, now, finish }: SolutionContext): Promise<void> => {
    await fhir.read('Practitioner', 's1-prac-hematology-1');
    // One row per coding of each active order (or one row with null system/code for a free-text order).
    const base = view('orders', 'MedicationRequest', [['id', 'getResourceKey()'], ['patient', 'subject.getReferenceKey(Patient)'], ['text', 'medication.ofType(CodeableConcept).text']], ["status = 'active'"]);
    const orderRows = await runView<{ id: string; patient: string | null; text: string | null; system: string | null; code: string | null }>(fhir, {
      ...base, select: [...base.select, { forEachOrNull: 'medication.ofType(CodeableConcept).coding', column: [{ name: 'system', path: 'system' }, { name: 'code', path: 'code' }] }],
    });
    const orders = new Map<string, { patient: string | null; concept: CodeableConcept & { coding: Coding[] } }>();
    for (const r of orderRows) {
      const o = orders.get(r.id) ?? { patient: r.patient, concept: { coding: [], ...(r.text ? { text: r.text } : {}) } };
      if (r.system !== null || r.code !== null) o.concept.coding.push({ ...(r.system ? { system: r.system } : {}), ...(r.code ? { code: r.code } : {}) });
      orders.set(r.id, o);
    }
    const anticoagulant = [...orders].filter(([, o]) => isAnticoagulant({ resourceType: 'MedicationRequest', medicationCodeableConcept: o.concept } as MedicationRequest));
    const patients = [...new Set(anticoagulant.map(([, o]) => o.patient).filter((p): p is string => !!p))].sort();
    const hgb = await runView<{ patient: string; effective: string }>(fhir, view('hgb', 'Observation', [['patient', 'subject.getReferenceKey(Patient)'], ['effective', EFFECTIVE]], [
      `code.coding.where((system = 'http://loinc.org' and (code = '718-7' or code = '30313-1' or code = '20509-6')) or (system = '${FLOWSHEET}' and code = 'HGB')).exists()`,
      "status != 'entered-in-error' and status != 'cancelled'",
      'value.ofType(Quantity).value.exists()',
    ]));
    const to = Date.parse(now);
    const from = to - 182 * 86400_000;
    const checked = new Set(hgb.filter((r) => { const t = Date.parse(r.effective); return t >= from && t <= to; }).map((r) => r.patient));
    const gaps = patients.filter((p) => !checked.has(p));
    // The view found the orders; open each one, as a clinician would before citing it.
    for (const [id] of anticoagulant) await fhir.read('MedicationRequest', id);
    await finish(JSON.stringify({ anticoagulated: patients.length, withoutHemoglobin6mo: gaps.length, patients: gaps.map((p) => `Patient/${p}`) }));
  },
};
