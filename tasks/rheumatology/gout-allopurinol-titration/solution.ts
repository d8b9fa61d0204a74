// Reference solution: read the urate trend, kidney function, problems and the allopurinol order; at goal change
// nothing; above goal stop the old order, start the next allopurinol step (+100 mg/day, +50 mg/day with eGFR < 30)
// and order a urate recheck in 4 weeks (ACR 2020 treat-to-target). Thresholds come from facts.ts; reading the chart
// and deciding is this file's own code.
import type { MedicationRequest, Observation, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { dailyDose } from '../../../graders/lib/index.ts';
import { FLOWSHEET, GOUT, LOINC, RXNORM, SEVERE_CKD_EGFR, SNOMED, URATE_GOAL_MG_DL } from './facts.ts';

const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.effectivePeriod?.start ?? o.issued ?? '');
const newest = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined).sort((a, b) => when(b) - when(a))[0];
const drugText = (o: MedicationRequest) => [o.medicationCodeableConcept?.text, ...(o.medicationCodeableConcept?.coding ?? []).map((c) => c.display)].join(' ').toLowerCase();

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const active = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const urate = newest(await fhir.search<Observation>('Observation', { patient, code: `${LOINC}|3084-1,${FLOWSHEET}|URIC`, _sort: '-date' }))!;
  const egfrObs = newest(await fhir.search<Observation>('Observation', { patient, code: `${LOINC}|33914-3,${LOINC}|62238-1,${LOINC}|98979-8,${FLOWSHEET}|EGFR`, _sort: '-date' }));
  await fhir.search('Observation', { patient, code: `${LOINC}|2160-0`, _sort: '-date', _count: 5 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 5 });

  const value = urate.valueQuantity!.value!;
  const day = (urate.effectiveDateTime ?? '').slice(0, 10);
  const allopurinol = active.filter((o) => drugText(o).includes('allopurinol'));
  const current = allopurinol.reduce((sum, o) => sum + (dailyDose(o, 'mg') ?? 0), 0);
  if (value < URATE_GOAL_MG_DL) {
    await finish(`Latest serum urate ${value} mg/dL (${day}): at goal (< ${URATE_GOAL_MG_DL} mg/dL). Continue allopurinol ${current} mg daily unchanged; recheck urate at the next routine visit (about 6 months).`);
    return;
  }
  const egfr = egfrObs?.valueQuantity?.value;
  const next = current + (egfr !== undefined && egfr < SEVERE_CKD_EGFR ? 50 : 100);
  for (const o of allopurinol) {
    await fhir.read('MedicationRequest', o.id!);
    await fhir.patch('MedicationRequest', o.id!, [
      { op: 'replace', path: '/status', value: 'stopped' },
      { op: 'add', path: '/statusReason', value: { text: `Dose increased to ${next} mg daily: serum urate ${value} mg/dL above goal < ${URATE_GOAL_MG_DL}` } },
    ]);
  }
  const order: MedicationRequest = {
    resourceType: 'MedicationRequest', status: 'active', intent: 'order',
    medicationCodeableConcept: { coding: [{ system: RXNORM, code: '519', display: 'allopurinol' }], text: `allopurinol ${next} mg daily` },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
    ...(allopurinol[0] ? { priorPrescription: { reference: `MedicationRequest/${allopurinol[0].id}` } } : {}),
    reasonCode: [{ coding: [{ system: SNOMED, code: GOUT.code, display: GOUT.display }] }],
    dosageInstruction: [{
      text: `Take ${next} mg by mouth once daily`,
      timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } },
      route: { coding: [{ system: SNOMED, code: '26643006', display: 'Oral route' }] },
      doseAndRate: [{ doseQuantity: { value: next, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }],
    }],
  };
  await fhir.create(order);
  const lab: ServiceRequest = {
    resourceType: 'ServiceRequest', status: 'active', intent: 'order',
    category: [{ coding: [{ system: SNOMED, code: '108252007', display: 'Laboratory procedure' }] }],
    code: { coding: [{ system: LOINC, code: '3084-1', display: 'Urate [Mass/volume] in Serum or Plasma' }] },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
    occurrenceDateTime: new Date(Date.parse(now) + 28 * 86_400_000).toISOString(),
    reasonCode: [{ text: `Allopurinol titration to serum urate < ${URATE_GOAL_MG_DL} mg/dL` }],
  };
  await fhir.create(lab);
  await finish(`Latest serum urate ${value} mg/dL (${day}): not at goal (above ${URATE_GOAL_MG_DL} mg/dL). eGFR ${egfr ?? 'not on file'}. Allopurinol increased from ${current} to ${next} mg once daily (old order stopped); serum urate recheck ordered in 4 weeks.`);
}
