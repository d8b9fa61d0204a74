// Reference solution: review CKD, kidney labs, potassium and the medication list (ACE inhibitor/ARB, diuretics,
// anticoagulants, any NSAID already prescribed); decline the ibuprofen (KDIGO 2024 chapter 3; Beers 2023), stop a
// systemic NSAID that is already active, recommend topical diclofenac and acetaminophen (ACR 2019), and document it.
// The drug lists come from facts.ts and graders/lib/drug-classes.ts; the reading and the decision are this file's own.
import type { Condition, MedicationRequest, Observation } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { clinicalNote, effectiveTime, plainDrugName } from '../../../graders/lib/index.ts';
import { conceptIs, orderInClass } from '../../../graders/lib/drug-classes.ts';
import { CKD_PROBLEMS, FLOWSHEET, LOINC, NSAID_CLASS, RAAS_CLASSES } from './facts.ts';

const newest = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)))[0];
const day = (o: Observation) => effectiveTime(o).slice(0, 10);
const asOrdered = (o: MedicationRequest) => plainDrugName(o.medicationCodeableConcept?.text ?? o.medicationCodeableConcept?.coding?.[0]?.display ?? '');

export interface NsaidNoteFacts {
  ckd: string;
  egfr: Observation;
  potassium: Observation;
  /** The ACE inhibitor/ARB order(s) as ordered, e.g. "lisinopril 10 mg once daily". */
  raas: string | string[];
  /** Systemic NSAIDs that were active and are stopped now. */
  stopped?: string[];
}

export function nsaidNote(f: NsaidNoteFacts): string {
  return [
    'Nephrology e-consult: knee osteoarthritis pain.',
    'Question: should ibuprofen 400 mg three times daily be prescribed?',
    `Problem: ${f.ckd}.`,
    `Labs: eGFR ${f.egfr.valueQuantity!.value} mL/min/1.73m2 on ${day(f.egfr)}; potassium ${f.potassium.valueQuantity!.value} mmol/L on ${day(f.potassium)}.`,
    `Medications: on ${[f.raas].flat().join(' and ')}.`,
    ...(f.stopped ?? []).map((s) => `Discontinued ${s} today (systemic NSAID in CKD on RAAS blockade).`),
    'Assessment: a systemic NSAID in CKD on RAAS blockade carries a risk of acute kidney injury, hyperkalemia and faster loss of kidney function (KDIGO 2024).',
    'Recommendation: ibuprofen not prescribed. Use topical diclofenac gel to the knee and acetaminophen up to 3 g a day; physical therapy and weight management per ACR 2019 osteoarthritis guidance.',
  ].join('\n');
}

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  const requester = task.requester.reference;
  await fhir.read('Patient', patient);
  const conditions = await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const meds = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  await fhir.search('MedicationRequest', { patient, _sort: '-authoredon', _count: 50 });
  const egfr = newest(await fhir.search<Observation>('Observation', { patient, code: `${LOINC}|33914-3,${LOINC}|62238-1,${FLOWSHEET}|EGFR`, _sort: '-date', _count: 20 }));
  const potassium = newest(await fhir.search<Observation>('Observation', { patient, code: `${LOINC}|2823-3,${FLOWSHEET}|K`, _sort: '-date', _count: 10 }));
  await fhir.search('Observation', { patient, code: `${LOINC}|2160-0,${FLOWSHEET}|CREAT`, _sort: '-date', _count: 10 });
  await fhir.search('Observation', { patient, code: `${LOINC}|14959-1,${FLOWSHEET}|UACR`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, code: `${LOINC}|718-7,${FLOWSHEET}|HGB`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, category: 'vital-signs', _sort: '-date', _count: 10 });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 5 });

  const ckdCodes = CKD_PROBLEMS.flatMap((s) => s.codes);
  const ckd = conditions.find((c) => c.code?.coding?.some((x) => x.code && ckdCodes.includes(x.code)));
  const raas = meds.filter((o) => RAAS_CLASSES.some((id) => conceptIs(o.medicationCodeableConcept, id)));
  // A systemic NSAID (orderInClass reads the route: a gel or patch is topical; low-dose aspirin is antiplatelet).
  const nsaids = meds.filter((o) => orderInClass(o, NSAID_CLASS));
  for (const order of nsaids) {
    await fhir.patch('MedicationRequest', order.id!, [
      { op: 'replace', path: '/status', value: 'stopped' },
      { op: 'add', path: '/statusReason', value: { text: 'Systemic NSAID in CKD on RAAS blockade (KDIGO 2024)' } },
    ]);
  }
  const text = nsaidNote({
    ckd: ckd?.code?.text ?? 'chronic kidney disease', egfr: egfr!, potassium: potassium!,
    raas: raas.map((o) => `${asOrdered(o)} once daily`), stopped: nsaids.map(asOrdered),
  });
  await fhir.create(clinicalNote({ patient, author: requester, date: now, description: 'Nephrology e-consult: NSAID request', title: 'Nephrology e-consult', text }));
  await finish(JSON.stringify({
    prescribe: false,
    recommendation: `Do not prescribe ibuprofen (CKD on RAAS blockade); topical diclofenac and acetaminophen instead.${nsaids.length ? ` Stopped ${nsaids.map(asOrdered).join(', ')}.` : ''}`,
  }));
}
