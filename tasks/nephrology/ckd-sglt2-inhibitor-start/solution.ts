// Reference solution: review problems, allergies, medications, kidney labs with their trend, glucose control and
// vitals; start empagliflozin 10 mg daily (KDIGO 2024: eGFR >= 20), keep the ACE inhibitor/ARB, order a UACR in
// 3 months, and write the consult note.
import type { Condition, MedicationRequest, Observation, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { clinicalNote, effectiveTime, inCodeSet, isMedication, plainDrugName } from '../../../graders/lib/index.ts';
import { CKD, RAAS } from './grader.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const valued = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)));
const day = (o: Observation) => effectiveTime(o).slice(0, 10);

export interface CkdNoteFacts {
  ckd: string;
  egfr: Observation[];
  uacr: Observation;
  potassium: Observation;
  /** The ACE inhibitor/ARB as it is ordered, e.g. "lisinopril 10 mg once daily". */
  raas: string;
  uacrDue: string;
}

export function ckdSglt2Note(f: CkdNoteFacts): string {
  const [e, previous] = f.egfr;
  return [
    'Nephrology e-consult: SGLT2 inhibitor.',
    `Problem: ${f.ckd}.`,
    `Labs: eGFR ${e.valueQuantity!.value} mL/min/1.73m2 on ${day(e)}${previous ? ` (previous eGFR ${previous.valueQuantity!.value} on ${day(previous)})` : ''}; urine albumin/creatinine ratio ${f.uacr.valueQuantity!.value} mg/g on ${day(f.uacr)}; potassium ${f.potassium.valueQuantity!.value} mmol/L on ${day(f.potassium)}.`,
    `Medications: on ${f.raas}.`,
    'Assessment: CKD with albuminuria on RAAS blockade, above the eGFR threshold (20) for starting an SGLT2 inhibitor, which lowers the risk of kidney failure and cardiovascular events (KDIGO 2024).',
    'Plan: started empagliflozin 10 mg once daily. Continue the ACE inhibitor or ARB at the maximally tolerated dose.',
    `Sick-day rules reviewed (hold during acute illness or poor intake); expect an initial eGFR dip. Urine albumin/creatinine ratio ordered for ${f.uacrDue}.`,
    'Recheck potassium and creatinine at that visit.',
  ].join('\n');
}

function raasText(o: MedicationRequest): string {
  const name = plainDrugName(o.medicationCodeableConcept?.text ?? o.medicationCodeableConcept?.coding?.[0]?.display ?? 'ACE inhibitor/ARB');
  return `${name} once daily`;
}

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  const requester = task.requester.reference;
  await fhir.read('Patient', patient);
  const conditions = await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const meds = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const egfr = valued(await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,${FLOWSHEET}|EGFR`, _sort: '-date', _count: 20 }));
  const uacr = valued(await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|14959-1,${FLOWSHEET}|UACR`, _sort: '-date', _count: 10 }));
  const k = valued(await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|2823-3,${FLOWSHEET}|K`, _sort: '-date', _count: 10 }));
  await fhir.search('Observation', { patient, code: `http://loinc.org|2160-0,${FLOWSHEET}|CREAT`, _sort: '-date', _count: 10 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|4548-4,${FLOWSHEET}|A1C`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|2028-9,${FLOWSHEET}|CO2`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, category: 'vital-signs', _sort: '-date', _count: 20 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 10 });
  await fhir.search('CarePlan', { patient, status: 'active' });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 5 });

  const ckd = conditions.find((c) => inCodeSet(c.code, CKD));
  const raas = meds.find((o) => isMedication(o.medicationCodeableConcept, RAAS))!;
  await fhir.create<MedicationRequest>({
    resourceType: 'MedicationRequest', status: 'active', intent: 'order',
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1545653', display: 'empagliflozin' }], text: 'empagliflozin 10 MG Oral Tablet' },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: requester },
    reasonCode: [{ coding: [{ system: 'http://snomed.info/sct', code: ckd?.code?.coding?.find((c) => c.system === 'http://snomed.info/sct')?.code ?? '709044004' }], text: 'CKD with albuminuria: kidney protection (KDIGO 2024)' }],
    dosageInstruction: [{
      text: '10 mg by mouth once daily', timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } },
      route: { coding: [{ system: 'http://snomed.info/sct', code: '26643006', display: 'Oral route' }] },
      doseAndRate: [{ doseQuantity: { value: 10, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }],
    }],
  });
  const due = new Date(Date.parse(now) + 90 * 86_400_000).toISOString();
  await fhir.create<ServiceRequest>({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'routine',
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '108252007', display: 'Laboratory procedure' }] }],
    code: { coding: [{ system: 'http://loinc.org', code: '14959-1', display: 'Microalbumin/Creatinine [Mass Ratio] in Urine' }], text: 'Urine albumin/creatinine ratio' },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, occurrenceDateTime: due, requester: { reference: requester },
    ...(ckd ? { reasonReference: [{ reference: `Condition/${ckd.id}` }] } : {}),
  });
  const text = ckdSglt2Note({ ckd: ckd?.code?.text ?? 'chronic kidney disease', egfr, uacr: uacr[0], potassium: k[0], raas: raasText(raas), uacrDue: due.slice(0, 10) });
  await fhir.create(clinicalNote({ patient, author: requester, date: now, description: 'Nephrology e-consult: SGLT2 inhibitor', title: 'Nephrology e-consult', text }));
  await finish('Started empagliflozin 10 mg daily (eGFR >= 20, on RAAS blockade); UACR ordered; consult note filed.');
}
