// Reference solution: review problems, medications, allergies and the kidney labs with their trend; stage the CKD
// (KDIGO G and A categories from the latest results) and write the consult note; place no orders.
import type { Condition, MedicationRequest, Observation } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { clinicalNote, effectiveTime, inCodeSet, plainDrugName, SNOMED } from '../../../graders/lib/index.ts';
import { aCategory, gCategory, isRaas } from './grader.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const CKD = [{ system: SNOMED, codes: ['433144002', '431857002', '700378005', '433146000', '709044004'] }];

const valued = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)));
const day = (o: Observation) => effectiveTime(o).slice(0, 10);

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  const conditions = await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const meds = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const egfr = valued(await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,${FLOWSHEET}|EGFR`, _sort: '-date', _count: 50 }));
  const uacr = valued(await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|14959-1,${FLOWSHEET}|UACR`, _sort: '-date', _count: 20 }));
  const k = valued(await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|2823-3,${FLOWSHEET}|K`, _sort: '-date', _count: 20 }));
  await fhir.search('Observation', { patient, code: `http://loinc.org|2160-0,${FLOWSHEET}|CREAT`, _sort: '-date', _count: 20 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|718-7,${FLOWSHEET}|HGB`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|2028-9,${FLOWSHEET}|CO2`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, category: 'vital-signs', _sort: '-date', _count: 20 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 10 });
  await fhir.search('CarePlan', { patient, status: 'active' });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 5 });

  const [e, u, pot] = [egfr[0], uacr[0], k[0]];
  const ev = e.valueQuantity!.value!;
  const uv = u.valueQuantity!.value!;
  const g = gCategory(ev);
  const a = aCategory(uv);
  const ckd = conditions.find((c) => inCodeSet(c.code, CKD));
  const raas = meds.find(isRaas)!;
  const raasName = plainDrugName(raas.medicationCodeableConcept?.text ?? '');
  const diabetes = conditions.some((c) => inCodeSet(c.code, [{ system: SNOMED, codes: ['44054006'] }]));
  const text = [
    'Nephrology e-consult.',
    `Problem: ${ckd?.code?.text ?? 'chronic kidney disease'}${diabetes ? '; type 2 diabetes' : ''}.`,
    `Labs: eGFR ${ev} mL/min/1.73m2 on ${day(e)}; urine albumin/creatinine ratio ${uv} mg/g on ${day(u)}; potassium ${pot.valueQuantity!.value} mmol/L on ${day(pot)}.`,
    `Medications: ${raasName} once daily.`,
    `Assessment: CKD ${g}${a} by KDIGO categories; eGFR has ${egfr.length > 1 && egfr[egfr.length - 1].valueQuantity!.value! > ev ? 'declined' : 'been stable'} over the period on file.`,
    'Recommendations: continue the ACE inhibitor or ARB at the maximally tolerated dose with blood pressure goal below 120-130 systolic; consider an SGLT2 inhibitor while eGFR is 20 or more; avoid NSAIDs; recheck BMP and UACR in 3 months.',
  ].join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Nephrology e-consult: CKD', text }));
  await finish(JSON.stringify({ egfr: ev, uacr: uv, gCategory: g, aCategory: a }));
}
