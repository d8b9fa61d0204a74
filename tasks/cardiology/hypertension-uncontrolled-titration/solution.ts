// Reference solution: review problems, allergies, the antihypertensive orders, blood pressures over recent visits,
// potassium, creatinine and eGFR; then up-titrate lisinopril 10 -> 20 mg (old order stopped with a reason) when the
// latest potassium is <= 5.0, else add amlodipine 5 mg; order a BMP in 2 weeks; write the note (ACC/AHA 2017).
import type { Condition, MedicationRequest, Observation, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { clinicalNote, effectiveTime, isMedication, PROGRESS_NOTE } from '../../../graders/lib/index.ts';
import { bloodPressure, LISINOPRIL } from './grader.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const newest = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)))[0];
const day = (o: Observation) => effectiveTime(o).slice(0, 10);

export interface HypertensionNoteFacts {
  pressures: Observation[];
  potassium: Observation;
  egfr: Observation;
  /** What was done, e.g. "lisinopril increased to 20 mg once daily". */
  change: string;
  labs: string;
}

/** The note text: every number is the chart's, with its date, so the verifier can check each claim. */
export function hypertensionNote(f: HypertensionNoteFacts): string {
  const bps = f.pressures.map((o) => {
    const bp = bloodPressure(o)!;
    return `blood pressure ${bp.systolic}/${bp.diastolic} mmHg on ${day(o)}`;
  });
  return [
    'Hypertension management note.',
    'Problem: essential hypertension, above the ACC/AHA goal of < 130/80 on ACE inhibitor monotherapy.',
    `Recent office readings: ${bps.join('; ')}.`,
    `Labs: potassium ${f.potassium.valueQuantity!.value} mmol/L on ${day(f.potassium)}; eGFR ${f.egfr.valueQuantity!.value} mL/min/1.73m2 on ${day(f.egfr)}.`,
    `Change: ${f.change}.`,
    `Follow-up: ${f.labs}; recheck blood pressure in 4 weeks with home readings.`,
  ].join('\n');
}

const tablet = (patient: string, now: string, requester: string, code: string, text: string, mg: number, reason: string): MedicationRequest => ({
  resourceType: 'MedicationRequest', status: 'active', intent: 'order',
  medicationCodeableConcept: { coding: [{ system: RXNORM, code, display: text }], text },
  subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: requester },
  reasonCode: [{ coding: [{ system: 'http://snomed.info/sct', code: '59621000', display: 'Essential hypertension' }], text: reason }],
  dosageInstruction: [{
    text: `${mg} mg by mouth once daily`,
    timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } },
    route: { coding: [{ system: 'http://snomed.info/sct', code: '26643006', display: 'Oral route' }] },
    doseAndRate: [{ doseQuantity: { value: mg, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }],
  }],
  dispenseRequest: { quantity: { value: 90, unit: 'tablet' }, numberOfRepeatsAllowed: 3 },
});

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  const requester = task.requester.reference;
  await fhir.read('Patient', patient);
  await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  await fhir.search('MedicationRequest', { patient, _sort: '-authoredon', _count: 50 });
  const vitals = await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|85354-9,${FLOWSHEET}|BP`, _sort: '-date', _count: 10 });
  const pressures = vitals.filter((o) => o.status !== 'entered-in-error' && bloodPressure(o))
    .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a))).slice(0, 2);
  const potassium = newest(await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|2823-3,${FLOWSHEET}|K`, _sort: '-date', _count: 10 }));
  const egfr = newest(await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,${FLOWSHEET}|EGFR`, _sort: '-date', _count: 10 }));
  await fhir.search('Observation', { patient, code: `http://loinc.org|2160-0,${FLOWSHEET}|CREAT`, _sort: '-date', _count: 10 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|2951-2,${FLOWSHEET}|NA`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|14959-1,${FLOWSHEET}|UACR`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|4548-4,${FLOWSHEET}|A1C`, _sort: '-date', _count: 5 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 10 });
  await fhir.search('CarePlan', { patient, status: 'active' });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 5 });

  const k = potassium.valueQuantity!.value!;
  let change: string;
  if (k <= 5.0) {
    for (const old of active.filter((o) => isMedication(o.medicationCodeableConcept, LISINOPRIL))) {
      await fhir.read('MedicationRequest', old.id!);
      await fhir.patch('MedicationRequest', old.id!, [
        { op: 'replace', path: '/status', value: 'stopped' },
        { op: 'add', path: '/statusReason', value: { text: 'Dose increased to 20 mg daily (BP above goal); replaced by a new order' } },
      ]);
    }
    await fhir.create(tablet(patient, now, requester, '314077', 'lisinopril 20 MG Oral Tablet', 20, 'BP above goal on lisinopril 10 mg: up-titrated'));
    change = 'lisinopril increased to 20 mg once daily (the 10 mg order was stopped and replaced)';
  } else {
    await fhir.create(tablet(patient, now, requester, '197361', 'amlodipine 5 MG Oral Tablet', 5, 'BP above goal on lisinopril; potassium too high to up-titrate'));
    change = 'amlodipine 5 mg once daily added; lisinopril dose unchanged because of the potassium';
  }
  const due = new Date(Date.parse(now) + 14 * 86_400_000).toISOString();
  const bmp: ServiceRequest = {
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'routine',
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '108252007', display: 'Laboratory procedure' }] }],
    code: { coding: [{ system: 'http://loinc.org', code: '51990-0', display: 'Basic metabolic panel - Blood' }], text: 'Basic metabolic panel' },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, occurrenceDateTime: due, requester: { reference: requester },
    reasonCode: [{ text: 'Potassium and creatinine 2 weeks after antihypertensive change' }],
  };
  await fhir.create(bmp);
  const text = hypertensionNote({ pressures, potassium, egfr, change, labs: `basic metabolic panel ordered for ${due.slice(0, 10)}` });
  await fhir.create(clinicalNote({ type: PROGRESS_NOTE, patient, author: requester, date: now, description: 'Hypertension: regimen intensified', title: 'Hypertension note', text }));
  await finish(`${change}; BMP ordered for ${due.slice(0, 10)}; note filed.`);
}
