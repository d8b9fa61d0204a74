// Reference solution: review the HF history, GDMT orders, allergies, kidney function, potassium and vitals; the
// beta blocker, ACE inhibitor/ARB and MRA are on board, so add empagliflozin 10 mg daily (the missing pillar).
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { effectiveTime } from '../../../graders/lib/index.ts';
import { inClass } from './grader.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const newest = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)))[0];

export default async function solution(ctx: SolutionContext): Promise<void> {
  await act(ctx, { code: '1545653', name: 'empagliflozin' });
}

/** Alternatives task check also proves: dapagliflozin is as good as empagliflozin. */
export const alternativeSolutions = {
  dapagliflozin: (ctx: SolutionContext) => act(ctx, { code: '1488564', name: 'dapagliflozin' }),
};

async function act({ fhir, patient, now, task, finish }: SolutionContext, drug: { code: string; name: string }): Promise<void> {
  await fhir.read('Patient', patient);
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const orders = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  await fhir.search('MedicationRequest', { patient, _sort: '-authoredon', _count: 50 });
  await fhir.search('Procedure', { patient, code: 'http://snomed.info/sct|40701008' });
  const egfr = newest(await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,${FLOWSHEET}|EGFR`, _sort: '-date', _count: 20 }))!;
  const k = newest(await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|2823-3,${FLOWSHEET}|K`, _sort: '-date', _count: 20 }))!;
  await fhir.search('Observation', { patient, code: `http://loinc.org|33762-6,${FLOWSHEET}|NTBNP`, _sort: '-date', _count: 10 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|4548-4,${FLOWSHEET}|A1C`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, category: 'vital-signs', _sort: '-date', _count: 30 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 10 });
  await fhir.search('CarePlan', { patient, status: 'active' });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 5 });
  const missing = ['beta blocker', 'ACE inhibitor/ARB/ARNI', 'MRA', 'SGLT2 inhibitor'].filter((c) => !orders.some((o) => inClass(o, c)));

  const sglt2: MedicationRequest = {
    resourceType: 'MedicationRequest', status: 'active', intent: 'order',
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: drug.code, display: drug.name }], text: `${drug.name} 10 MG Oral Tablet` },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
    reasonCode: [{ coding: [{ system: 'http://snomed.info/sct', code: '84114007', display: 'Heart failure' }], text: 'HFrEF: SGLT2 inhibitor (GDMT pillar)' }],
    dosageInstruction: [{
      text: '10 mg by mouth once daily',
      timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } },
      route: { coding: [{ system: 'http://snomed.info/sct', code: '26643006', display: 'Oral route' }] },
      doseAndRate: [{ doseQuantity: { value: 10, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }],
    }],
  };
  await fhir.create(sglt2);
  await finish(JSON.stringify({
    missing, ordered: `${drug.name} 10 mg by mouth once daily`, egfr: egfr.valueQuantity!.value, potassium: k.valueQuantity!.value,
    note: 'Beta blocker, ACE inhibitor/ARB and MRA already active; continue. eGFR >= 20, so an SGLT2 inhibitor is appropriate.',
  }));
}
