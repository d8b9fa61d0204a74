// Reference solution: review the diabetes and kidney picture, then (KDIGO 2022) at eGFR 30-44 replace the 2000 mg/day
// metformin order with 500 mg twice daily, below 30 stop it; order a BMP (3 months, or 2 weeks after stopping).
import type { MedicationRequest, Observation, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { effectiveTime } from '../../../graders/lib/index.ts';
import { dailyDoseMg, isMetformin, maxDailyMg } from './grader.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

function newest(results: Observation[]): Observation | undefined {
  return results.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
    .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)))[0];
}

export default async function solution(ctx: SolutionContext): Promise<void> {
  await act(ctx, 'replace');
}

/** Alternatives task check also proves: the dose changed in place on the existing order (eGFR 30-44). */
export const alternativeSolutions = {
  'change-in-place': (ctx: SolutionContext) => act(ctx, 'in-place'),
};

async function act({ fhir, patient, now, task, finish }: SolutionContext, style: 'replace' | 'in-place'): Promise<void> {
  await fhir.read('Patient', patient);
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  await fhir.search('MedicationRequest', { patient, code: 'http://www.nlm.nih.gov/research/umls/rxnorm|6809' });
  const egfrs = await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,${FLOWSHEET}|EGFR`, _sort: '-date', _count: 50 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|2160-0,${FLOWSHEET}|CREAT`, _sort: '-date', _count: 20 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|4548-4,${FLOWSHEET}|A1C`, _sort: '-date', _count: 10 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|2823-3,${FLOWSHEET}|K`, _sort: '-date', _count: 10 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|14959-1,${FLOWSHEET}|UACR`, _sort: '-date', _count: 10 });
  await fhir.search('Observation', { patient, category: 'vital-signs', _sort: '-date', _count: 20 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 10 });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 5 });
  const latest = newest(egfrs)!;
  const egfr = latest.valueQuantity!.value!;

  const stop = maxDailyMg(egfr) === 0;
  const fullDose = active.filter((o) => isMetformin(o) && (dailyDoseMg(o) ?? 0) > maxDailyMg(egfr));
  if (style === 'in-place' && !stop) {
    for (const order of fullDose) {
      await fhir.read('MedicationRequest', order.id!);
      await fhir.patch('MedicationRequest', order.id!, [
        { op: 'replace', path: '/dosageInstruction', value: [{
          text: '500 mg by mouth twice daily with meals (reduced for eGFR 30-44)',
          timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } },
          route: { coding: [{ system: 'http://snomed.info/sct', code: '26643006', display: 'Oral route' }] },
          doseAndRate: [{ doseQuantity: { value: 500, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }],
        }] },
        { op: 'add', path: '/note', value: [{ text: `Dose reduced for eGFR ${egfr} (KDIGO 2022)` }] },
      ]);
    }
  }
  for (const order of style === 'in-place' && !stop ? [] : fullDose) {
    await fhir.read('MedicationRequest', order.id!);
    await fhir.patch('MedicationRequest', order.id!, [
      { op: 'replace', path: '/status', value: 'stopped' },
      { op: 'add', path: '/statusReason', value: { text: stop ? `eGFR ${egfr} mL/min/1.73m2 below 30: metformin contraindicated, stopped` : `eGFR ${egfr} mL/min/1.73m2 (30-44): metformin dose reduced to 500 mg twice daily` } },
    ]);
  }
  const reduced: MedicationRequest = {
    resourceType: 'MedicationRequest', status: 'active', intent: 'order',
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '6809', display: 'metformin' }], text: 'metformin hydrochloride 500 MG Oral Tablet' },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
    reasonCode: [{ coding: [{ system: 'http://snomed.info/sct', code: '44054006', display: 'Type 2 diabetes mellitus' }] }],
    note: [{ text: `Dose reduced for eGFR ${egfr} (KDIGO 2022: max 1000 mg/day at eGFR 30-44; stop if < 30).` }],
    dosageInstruction: [{
      text: '500 mg by mouth twice daily with meals',
      timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } },
      route: { coding: [{ system: 'http://snomed.info/sct', code: '26643006', display: 'Oral route' }] },
      doseAndRate: [{ doseQuantity: { value: 500, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }],
    }],
  };
  if (!stop && style === 'replace') await fhir.create(reduced);
  const lab: ServiceRequest = {
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'routine',
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '108252007', display: 'Laboratory procedure' }] }],
    code: { coding: [{ system: 'http://loinc.org', code: '51990-0', display: 'Basic metabolic panel - Blood' }] },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
    occurrenceDateTime: new Date(Date.parse(now) + (stop ? 14 : 90) * 86400_000).toISOString(),
    reasonCode: [{ text: stop ? `eGFR ${egfr} below 30, metformin stopped - recheck kidney function` : `CKD, eGFR ${egfr}; on metformin 1000 mg/day - recheck eGFR in 3 months` }],
  };
  await fhir.create(lab);
  await finish(JSON.stringify({ egfr, egfrDate: effectiveTime(latest).slice(0, 10), dailyDoseMg: stop ? 0 : 1000, plan: stop ? 'metformin stopped (eGFR < 30); BMP in 2 weeks; glycemic alternatives (e.g. DPP-4 inhibitor, insulin) per A1c' : 'metformin 500 mg twice daily; BMP in 3 months; stop metformin if eGFR < 30' }));
}
