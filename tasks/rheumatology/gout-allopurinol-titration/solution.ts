// Reference solution: urate trend, kidney function and the allopurinol order; stop the old order, start the dose
// 100 mg/day higher (50 mg if eGFR < 30), order a uric acid recheck in about 4 weeks.
import type { MedicationRequest, Observation, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { doseOf, effectiveTime, isMedication } from '../../../graders/lib/index.ts';
import { ALLOPURINOL } from './grader.ts';

const newest = (list: Observation[]) => list.filter((o) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error')
  .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)))[0];

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const orders = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  await fhir.search('MedicationRequest', { patient, code: 'http://www.nlm.nih.gov/research/umls/rxnorm|2683' });
  const urate = newest(await fhir.search<Observation>('Observation', { patient, code: 'http://loinc.org|3084-1', _sort: '-date' }));
  const egfrObs = newest(await fhir.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3', _sort: '-date' }));
  await fhir.search('Observation', { patient, code: 'http://loinc.org|2160-0', _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|1742-6', _sort: '-date', _count: 3 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|58410-2,http://loinc.org|718-7', _sort: '-date', _count: 3 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 5 });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 3 });
  await fhir.search('CarePlan', { patient, status: 'active' });

  const old = orders.filter((o) => isMedication(o.medicationCodeableConcept, ALLOPURINOL));
  const current = Math.max(...old.map((o) => doseOf(o.dosageInstruction?.[0])?.value ?? 100));
  const egfr = egfrObs?.valueQuantity?.value ?? 90;
  const next = current + (egfr < 30 ? 50 : 100);
  for (const o of old) {
    await fhir.read('MedicationRequest', o.id!);
    await fhir.patch('MedicationRequest', o.id!, [
      { op: 'replace', path: '/status', value: 'stopped' },
      { op: 'add', path: '/statusReason', value: { text: `Dose increased to ${next} mg daily: serum urate ${urate.valueQuantity!.value} mg/dL above goal < 6` } },
    ]);
  }
  const order: MedicationRequest = {
    resourceType: 'MedicationRequest', status: 'active', intent: 'order',
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '519', display: 'allopurinol' }], text: `allopurinol ${next} mg oral tablet` },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
    ...(old[0] ? { priorPrescription: { reference: `MedicationRequest/${old[0].id}` } } : {}),
    reasonCode: [{ coding: [{ system: 'http://snomed.info/sct', code: '90560007', display: 'Gout' }] }],
    dosageInstruction: [{
      text: `Take ${next} mg by mouth once daily`,
      timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } },
      route: { coding: [{ system: 'http://snomed.info/sct', code: '26643006', display: 'Oral route' }] },
      doseAndRate: [{ doseQuantity: { value: next, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }],
    }],
  };
  await fhir.create(order);
  const lab: ServiceRequest = {
    resourceType: 'ServiceRequest', status: 'active', intent: 'order',
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '108252007', display: 'Laboratory procedure' }] }],
    code: { coding: [{ system: 'http://loinc.org', code: '3084-1', display: 'Urate [Mass/volume] in Serum or Plasma' }] },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
    occurrenceDateTime: new Date(Date.parse(now) + 28 * 86400_000).toISOString(),
    reasonCode: [{ text: 'Allopurinol titration to serum urate < 6 mg/dL' }],
  };
  await fhir.create(lab);
  await finish(`Latest urate ${urate.valueQuantity!.value} mg/dL (${effectiveTime(urate).slice(0, 10)}): not at goal (< 6 mg/dL). eGFR ${egfr}. Allopurinol increased from ${current} to ${next} mg once daily (old order stopped); uric acid recheck ordered in 4 weeks.`);
}
