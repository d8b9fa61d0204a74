// Reference solutions. REST (default): page through every active medication order, keep the oral anticoagulants (by
// the ingredients of any RxNorm code, brand or free text, through graders/lib/drugs), then look up each patient's
// hemoglobin results by LOINC and the local flowsheet code and keep those with none in the 182 days up to now. Views
// (alternativeSolutions.views): active orders (one row per coding) and hemoglobin results from two SQL on FHIR views
// run with ViewDefinition/$run, joined here; the anticoagulant orders found are then read by id, as the evidence.
import type { CodeableConcept, Coding, MedicationRequest, Observation } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { referenceId } from '../../../contracts/fhir-client.ts';
import { drugIngredientNames, runView, viewDefinition as view } from '../../../graders/lib/index.ts';
import { HEMOGLOBIN, ORAL_ANTICOAGULANTS, WINDOW_DAYS } from './facts.ts';

const oral = (concept: CodeableConcept | undefined) => drugIngredientNames(concept).some((n) => ORAL_ANTICOAGULANTS.includes(n));
const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.effectivePeriod?.start ?? o.effectiveInstant ?? o.issued ?? '');
const HGB_PARAM = HEMOGLOBIN.flatMap((s) => s.codes.map((c) => `${s.system}|${c}`)).join(',');

function answer(patients: string[], gaps: string[]): string {
  return JSON.stringify({ anticoagulated: patients.length, withoutHemoglobin6mo: gaps.length, patients: gaps.map((p) => `Patient/${p}`) });
}

export default async function solution({ fhir, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Practitioner', task.requester.reference.split('/')[1]);
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { status: 'active', _count: 500 }, { maxPages: 1000 });
  const patients = [...new Set(active.filter((o) => o.status === 'active' && oral(o.medicationCodeableConcept)).map((o) => referenceId(o.subject?.reference, 'Patient')!))].sort();
  const to = Date.parse(now);
  const from = to - WINDOW_DAYS * 86400_000;
  const gaps: string[] = [];
  for (const patient of patients) {
    await fhir.read('Patient', patient);
    const hgb = await fhir.search<Observation>('Observation', { patient, code: HGB_PARAM, _sort: '-date', _count: 50 });
    const recent = hgb.some((o) => o.status !== 'entered-in-error' && o.status !== 'cancelled' && o.valueQuantity?.value !== undefined && when(o) >= from && when(o) <= to);
    if (!recent) gaps.push(patient);
  }
  await finish(answer(patients, gaps));
}

const EFFECTIVE = '(effective.ofType(dateTime) | effective.ofType(Period).start | effective.ofType(instant) | issued).first()';

export const alternativeSolutions = {
  views: async ({ fhir, now, task, finish }: SolutionContext): Promise<void> => {
    await fhir.read('Practitioner', task.requester.reference.split('/')[1]);
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
    const anticoagulant = [...orders].filter(([, o]) => oral(o.concept));
    const patients = [...new Set(anticoagulant.map(([, o]) => o.patient).filter((p): p is string => !!p))].sort();
    const codes = HEMOGLOBIN.map((s) => `(system = '${s.system}' and (${s.codes.map((c) => `code = '${c}'`).join(' or ')}))`).join(' or ');
    const hgb = await runView<{ patient: string; effective: string }>(fhir, view('hgb', 'Observation', [['patient', 'subject.getReferenceKey(Patient)'], ['effective', EFFECTIVE]], [
      `code.coding.where(${codes}).exists()`,
      "status != 'entered-in-error' and status != 'cancelled'",
      'value.ofType(Quantity).value.exists()',
    ]));
    const to = Date.parse(now);
    const from = to - WINDOW_DAYS * 86400_000;
    const checked = new Set(hgb.filter((r) => { const t = Date.parse(r.effective); return t >= from && t <= to; }).map((r) => r.patient));
    // The view found the orders; open each one, as a clinician would before citing it.
    for (const [id] of anticoagulant) await fhir.read('MedicationRequest', id);
    await finish(answer(patients, patients.filter((p) => !checked.has(p))));
  },
};
