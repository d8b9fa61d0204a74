// Reference solution: review CKD, kidney labs, potassium and the medication list (ACE inhibitor/ARB, diuretics,
// anticoagulants); decline the ibuprofen (KDIGO 2024 practice point 3.15; Beers 2023), recommend acetaminophen and
// topical diclofenac, and document it. No medication order.
import type { Condition, MedicationRequest, Observation } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { clinicalNote, effectiveTime, inCodeSet, isMedication, plainDrugName } from '../../../graders/lib/index.ts';
import { CKD, RAAS } from './grader.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const newest = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)))[0];
const day = (o: Observation) => effectiveTime(o).slice(0, 10);

export interface NsaidNoteFacts {
  ckd: string;
  egfr: Observation;
  potassium: Observation;
  /** The ACE inhibitor/ARB as ordered, e.g. "lisinopril 10 mg once daily". */
  raas: string;
}

export function nsaidNote(f: NsaidNoteFacts): string {
  return [
    'Nephrology e-consult: knee osteoarthritis pain.',
    'Question: should ibuprofen 400 mg three times daily be prescribed?',
    `Problem: ${f.ckd}.`,
    `Labs: eGFR ${f.egfr.valueQuantity!.value} mL/min/1.73m2 on ${day(f.egfr)}; potassium ${f.potassium.valueQuantity!.value} mmol/L on ${day(f.potassium)}.`,
    `Medications: on ${f.raas}.`,
    'Assessment: a systemic NSAID in CKD on RAAS blockade carries a risk of acute kidney injury, hyperkalemia and faster loss of kidney function (KDIGO 2024 practice point 3.15).',
    'Recommendation: ibuprofen not prescribed. Use acetaminophen up to 3 g a day and topical diclofenac gel to the knee; physical therapy and weight management per ACR 2019 osteoarthritis guidance.',
  ].join('\n');
}

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  const requester = task.requester.reference;
  await fhir.read('Patient', patient);
  const conditions = await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const meds = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  await fhir.search('MedicationRequest', { patient, _sort: '-authoredon', _count: 50 });
  const egfr = newest(await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,${FLOWSHEET}|EGFR`, _sort: '-date', _count: 20 }));
  const potassium = newest(await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|2823-3,${FLOWSHEET}|K`, _sort: '-date', _count: 10 }));
  await fhir.search('Observation', { patient, code: `http://loinc.org|2160-0,${FLOWSHEET}|CREAT`, _sort: '-date', _count: 10 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|718-7,${FLOWSHEET}|HGB`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|1742-6,${FLOWSHEET}|ALT`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, category: 'vital-signs', _sort: '-date', _count: 10 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 10 });
  await fhir.search('CarePlan', { patient, status: 'active' });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 5 });

  const ckd = conditions.find((c) => inCodeSet(c.code, CKD));
  const raas = meds.find((o) => isMedication(o.medicationCodeableConcept, RAAS))!;
  const raasName = plainDrugName(raas.medicationCodeableConcept?.text ?? raas.medicationCodeableConcept?.coding?.[0]?.display ?? '');
  const text = nsaidNote({ ckd: ckd?.code?.text ?? 'chronic kidney disease', egfr, potassium, raas: `${raasName} once daily` });
  await fhir.create(clinicalNote({ patient, author: requester, date: now, description: 'Nephrology e-consult: NSAID request', title: 'Nephrology e-consult', text }));
  await finish(JSON.stringify({ prescribe: false, recommendation: 'Do not prescribe ibuprofen (CKD on RAAS blockade); acetaminophen and topical diclofenac instead.' }));
}
