// Reference solution: review problems, allergies, the antihypertensive orders, blood pressures over recent visits,
// potassium, creatinine and eGFR; then, when both latest BPs are at or above 130/80, up-titrate lisinopril one step
// (old order stopped with a reason) when the latest potassium is <= 5.0, else add amlodipine 5 mg; order a BMP in 2
// weeks after a lisinopril change; at goal change nothing. Write the note (ACC/AHA 2017). Thresholds come from
// facts.ts; reading the chart and deciding is this file's own code.
import type { Condition, MedicationRequest, Observation, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { clinicalNote, conceptIs, dailyDose, effectiveTime, PROGRESS_NOTE } from '../../../graders/lib/index.ts';
import { ACE_UP_TITRATION_MAX_K, DIASTOLIC, FLOWSHEET, GOAL, LISINOPRIL, RXNORM, SNOMED, SYSTOLIC } from './facts.ts';

const newest = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)))[0];
const day = (o: Observation) => effectiveTime(o).slice(0, 10);

/** Systolic and diastolic of a BP panel, by their LOINC component codes. */
function pressure(obs: Observation): { systolic: number; diastolic: number } | undefined {
  const part = (code: string) => obs.component?.find((c) => c.code?.coding?.some((x) => x.code === code))?.valueQuantity?.value;
  const systolic = part(SYSTOLIC);
  const diastolic = part(DIASTOLIC);
  return systolic === undefined || diastolic === undefined ? undefined : { systolic, diastolic };
}

export interface HypertensionNoteFacts {
  pressures: Observation[];
  potassium: Observation;
  egfr: Observation;
  /** What was decided, e.g. "lisinopril increased to 20 mg once daily". */
  change: string;
  labs: string;
}

/** The note text: every number is the chart's, with its date, so the verifier can check each claim. */
export function hypertensionNote(f: HypertensionNoteFacts, atGoal = false): string {
  const bps = f.pressures.map((o) => {
    const bp = pressure(o)!;
    return `blood pressure ${bp.systolic}/${bp.diastolic} mmHg on ${day(o)}`;
  });
  return [
    'Hypertension management note.',
    `Problem: essential hypertension, ${atGoal ? 'at' : 'above'} the ACC/AHA goal of < 130/80 on ACE inhibitor monotherapy.`,
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
  reasonCode: [{ coding: [{ system: SNOMED, code: '59621000', display: 'Essential hypertension' }], text: reason }],
  dosageInstruction: [{
    text: `${mg} mg by mouth once daily`,
    timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } },
    route: { coding: [{ system: SNOMED, code: '26643006', display: 'Oral route' }] },
    doseAndRate: [{ doseQuantity: { value: mg, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }],
  }],
  dispenseRequest: { quantity: { value: 90, unit: 'tablet' }, numberOfRepeatsAllowed: 3 },
});

/** Lisinopril SCDs by daily dose (RxNorm). */
const LISINOPRIL_SCD: Record<number, string> = { 20: '314077', 40: '197884' };

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  const requester = task.requester.reference;
  await fhir.read('Patient', patient);
  await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const active = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  await fhir.search('MedicationRequest', { patient, _sort: '-authoredon', _count: 50 });
  const vitals = await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|85354-9,${FLOWSHEET}|BP`, _sort: '-date', _count: 10 });
  const pressures = vitals.filter((o) => o.status !== 'entered-in-error' && pressure(o))
    .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a))).slice(0, 2);
  const potassium = newest(await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|2823-3,${FLOWSHEET}|K`, _sort: '-date', _count: 10 }))!;
  const egfr = newest(await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,${FLOWSHEET}|EGFR`, _sort: '-date', _count: 10 }))!;
  await fhir.search('Observation', { patient, code: `http://loinc.org|2160-0,${FLOWSHEET}|CREAT`, _sort: '-date', _count: 10 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 10 });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 5 });

  const lisinopril = active.filter((o) => conceptIs(o.medicationCodeableConcept, LISINOPRIL.ingredient));
  const current = lisinopril.reduce((sum, o) => sum + (dailyDose(o, 'mg') ?? 0), 0);
  const atGoal = pressures.every((o) => pressure(o)!.systolic < GOAL.systolic && pressure(o)!.diastolic < GOAL.diastolic);
  const k = potassium.valueQuantity!.value!;
  let change: string;
  let labs = 'BMP at the next routine visit';
  if (atGoal) {
    change = `none - BP at goal: continue lisinopril ${current} mg once daily unchanged`;
  } else if (k <= ACE_UP_TITRATION_MAX_K && current * 2 <= LISINOPRIL.maxMg) {
    const next = current * 2;
    for (const old of lisinopril) {
      await fhir.read('MedicationRequest', old.id!);
      await fhir.patch('MedicationRequest', old.id!, [
        { op: 'replace', path: '/status', value: 'stopped' },
        { op: 'add', path: '/statusReason', value: { text: `Dose increased to ${next} mg daily (BP above goal); replaced by a new order` } },
      ]);
    }
    await fhir.create(tablet(patient, now, requester, LISINOPRIL_SCD[next] ?? '29046', `lisinopril ${next} MG Oral Tablet`, next, `BP above goal on lisinopril ${current} mg: up-titrated`));
    change = `lisinopril increased to ${next} mg once daily (the ${current} mg order was stopped and replaced)`;
    const due = new Date(Date.parse(now) + 14 * 86_400_000).toISOString();
    const bmp: ServiceRequest = {
      resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'routine',
      category: [{ coding: [{ system: SNOMED, code: '108252007', display: 'Laboratory procedure' }] }],
      code: { coding: [{ system: 'http://loinc.org', code: '51990-0', display: 'Basic metabolic panel - Blood' }], text: 'Basic metabolic panel' },
      subject: { reference: `Patient/${patient}` }, authoredOn: now, occurrenceDateTime: due, requester: { reference: requester },
      reasonCode: [{ text: 'Potassium and creatinine 2 weeks after ACE inhibitor dose increase' }],
    };
    await fhir.create(bmp);
    labs = `basic metabolic panel ordered for ${due.slice(0, 10)}`;
  } else {
    await fhir.create(tablet(patient, now, requester, '197361', 'amlodipine 5 MG Oral Tablet', 5, 'BP above goal on lisinopril; potassium too high to up-titrate'));
    change = `add amlodipine 5 mg once daily; lisinopril ${current} mg unchanged because of the potassium (${k} mmol/L)`;
  }
  const text = hypertensionNote({ pressures, potassium, egfr, change, labs }, atGoal);
  await fhir.create(clinicalNote({ type: PROGRESS_NOTE, patient, author: requester, date: now, description: 'Hypertension review', title: 'Hypertension note', text }));
  await finish(`${atGoal ? 'BP at goal' : 'BP above goal'}: ${change}; ${labs}; note filed.`);
}
