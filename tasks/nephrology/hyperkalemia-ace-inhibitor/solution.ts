// Reference solution: read the medication list and the potassium history, then act on the latest potassium only as
// far as it requires (task check's mutation test needs every write to matter):
//   K >= 5.5: stop potassium supplements / potassium-sparing diuretics; at K >= 6.0 with nothing else to stop, stop
//   the ACE inhibitor too; recheck potassium with a BMP in 2 days;
//   K <= 5.0 (an earlier high value resolved): change nothing.
// Thresholds and drug lists come from facts.ts; the reading and the decision are this file's own code.
import type { MedicationRequest, Observation, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { conceptIs } from '../../../graders/lib/drug-classes.ts';
import { FLOWSHEET, HYPERKALEMIA, LISINOPRIL, LOINC, POTASSIUM_BANDS, RXNORM, STOP_AT_HIGH, type DrugGroup } from './facts.ts';

const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.effectivePeriod?.start ?? o.issued ?? '');

/** Whether an order's drug is one of the group's ingredients or in one of its classes (any code, brand or name). */
const orderIs = (order: MedicationRequest, group: DrugGroup): boolean =>
  [...group.ingredients, ...group.classes].some((id) => conceptIs(order.medicationCodeableConcept, id));

const isLisinopril = (order: MedicationRequest) => conceptIs(order.medicationCodeableConcept, LISINOPRIL.name);

function stop(order: MedicationRequest, k: number): { op: string; path: string; value: unknown }[] {
  return [
    { op: 'replace', path: '/status', value: 'stopped' },
    { op: 'add', path: '/statusReason', value: { coding: [HYPERKALEMIA], text: `Hyperkalemia (K ${k} mmol/L)` } },
  ];
}

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  const active = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const results = await fhir.search<Observation>('Observation', { patient, code: `${LOINC}|2823-3,${LOINC}|6298-4,${FLOWSHEET}|K`, _sort: '-date' });
  await fhir.search('Observation', { patient, code: `${LOINC}|33914-3,${LOINC}|62238-1,${FLOWSHEET}|EGFR`, _sort: '-date' });
  const latest = results.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined).sort((a, b) => when(b) - when(a))[0]!;
  const k = latest.valueQuantity!.value!;
  const day = (latest.effectiveDateTime ?? '').slice(0, 10);

  if (k <= POTASSIUM_BANDS.NORMAL_MAX) {
    await finish(`Latest K ${k} mmol/L (${day}): normal; the earlier high value has resolved. Continue lisinopril unchanged; no new orders.`);
    return;
  }
  if (k < POTASSIUM_BANDS.HIGH) throw new Error(`K ${k} is in the band this task has no variant for`);

  const done: string[] = [];
  const raising = active.filter((o) => STOP_AT_HIGH.some((g) => orderIs(o, g)));
  for (const order of raising) {
    await fhir.patch('MedicationRequest', order.id!, stop(order, k));
    done.push(`stopped ${order.medicationCodeableConcept?.text ?? 'potassium-raising drug'}`);
  }
  if (k >= POTASSIUM_BANDS.MUST_LOWER && raising.length === 0) {
    const aceOrders = active.filter(isLisinopril);
    for (const order of aceOrders) await fhir.patch('MedicationRequest', order.id!, stop(order, k));
    done.push('stopped lisinopril (re-challenge at a lower dose once K < 5.0)');
  } else {
    done.push('lisinopril continued unchanged (low-potassium diet advice)');
  }
  const lab: ServiceRequest = {
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'urgent',
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '108252007', display: 'Laboratory procedure' }] }],
    code: { coding: [{ system: LOINC, code: '51990-0', display: 'Basic metabolic panel - Blood' }] },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
    occurrenceDateTime: new Date(Date.parse(now) + 2 * 86400_000).toISOString(),
    reasonCode: [{ text: `Hyperkalemia, K ${k} mmol/L` }],
  };
  await fhir.create(lab);
  await finish(`Latest K ${k} mmol/L (${day}). ${done.join('; ')}. Repeat BMP ordered in 2 days.`);
}
