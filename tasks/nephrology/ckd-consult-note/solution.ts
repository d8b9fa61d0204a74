// Reference solution: review problems, medications, allergies and the kidney labs with their trend; stage the CKD
// (KDIGO G and A categories from the latest results), decide on an SGLT2 inhibitor by KDIGO 2024 (start at eGFR >= 20
// with diabetes, heart failure or UACR >= 200; never start below 20) and write the consult note; place no orders.
import type { Condition, MedicationRequest, Observation } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { classesOfOrder, clinicalNote, effectiveTime, plainDrugName } from '../../../graders/lib/index.ts';
import {
  A2_FROM, A3_ABOVE, CKD, FLOWSHEET, G_CATEGORIES, HEART_FAILURE, RAAS_CLASSES, SGLT2_CLASS, SGLT2_START_MIN_EGFR, SGLT2_STRONG_UACR, TYPE_2_DIABETES,
} from './facts.ts';

const valued = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)));
const day = (o: Observation) => effectiveTime(o).slice(0, 10);
const coded = (c: Condition, sets: { system: string; codes: string[] }[]) => (c.code?.coding ?? []).some((x) => sets.some((s) => s.system === x.system && s.codes.includes(x.code ?? '')));

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  const conditions = (await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active' })).filter((c) => c.clinicalStatus?.coding?.[0]?.code === 'active');
  await fhir.search('AllergyIntolerance', { patient });
  const meds = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const egfr = valued(await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,${FLOWSHEET}|EGFR`, _sort: '-date', _count: 50 }));
  const uacr = valued(await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|14959-1,${FLOWSHEET}|UACR`, _sort: '-date', _count: 20 }));
  const k = valued(await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|2823-3,${FLOWSHEET}|K`, _sort: '-date', _count: 20 }));
  await fhir.search('Observation', { patient, code: `http://loinc.org|2160-0,${FLOWSHEET}|CREAT`, _sort: '-date', _count: 20 });
  await fhir.search('Observation', { patient, category: 'vital-signs', _sort: '-date', _count: 20 });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 5 });

  const [e, u, pot] = [egfr[0], uacr[0], k[0]];
  const ev = e.valueQuantity!.value!;
  const uv = u.valueQuantity!.value!;
  let g = 'G5';
  for (const [from, name] of G_CATEGORIES) if (ev >= from) { g = name; break; }
  const a = uv > A3_ABOVE ? 'A3' : uv >= A2_FROM ? 'A2' : 'A1';
  const ckd = conditions.find((c) => coded(c, CKD));
  const raas = meds.find((o) => classesOfOrder(o).some((c) => RAAS_CLASSES.includes(c)))!;
  const sglt2 = meds.find((o) => classesOfOrder(o).includes(SGLT2_CLASS));
  const diabetes = conditions.some((c) => coded(c, TYPE_2_DIABETES));
  const heartFailure = conditions.some((c) => coded(c, HEART_FAILURE));
  const sglt2Advice = sglt2 ? `continue ${plainDrugName(sglt2.medicationCodeableConcept?.text ?? 'the SGLT2 inhibitor')} (cardiorenal protection; keep it even if eGFR falls below 20).`
    : ev < SGLT2_START_MIN_EGFR ? `do not start an SGLT2 inhibitor: eGFR ${ev} is below ${SGLT2_START_MIN_EGFR} (KDIGO 2024).`
      : diabetes || heartFailure || uv >= SGLT2_STRONG_UACR ? `start an SGLT2 inhibitor (e.g. empagliflozin 10 mg daily) - eGFR is at least ${SGLT2_START_MIN_EGFR} with ${[diabetes && 'type 2 diabetes', heartFailure && 'heart failure', uv >= SGLT2_STRONG_UACR && 'UACR of 200 or more'].filter(Boolean).join(' and ')} (KDIGO 2024, 1A).`
        : 'consider an SGLT2 inhibitor (KDIGO 2024 suggestion for eGFR 20-45 with UACR below 200).';
  const text = [
    'Nephrology e-consult.',
    `Problem: ${ckd?.code?.text ?? 'chronic kidney disease'}${diabetes ? '; type 2 diabetes' : ''}.`,
    `Labs: eGFR ${ev} mL/min/1.73m2 on ${day(e)}; urine albumin/creatinine ratio ${uv} mg/g on ${day(u)}; potassium ${pot.valueQuantity!.value} mmol/L on ${day(pot)}.`,
    `Medications: ${plainDrugName(raas.medicationCodeableConcept?.text ?? '')} once daily.`,
    `Assessment: CKD ${g}${a} by KDIGO categories; eGFR has ${egfr.length > 1 && egfr[egfr.length - 1].valueQuantity!.value! > ev ? 'declined' : 'been stable'} over the period on file.`,
    `Recommendations: continue the ACE inhibitor or ARB at the maximally tolerated dose; SGLT2 inhibitor: ${sglt2Advice} Avoid NSAIDs; recheck BMP and UACR in 3 months.`,
  ].join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Nephrology e-consult: CKD', text }));
  await finish(JSON.stringify({ egfr: ev, uacr: uv, gCategory: g, aCategory: a }));
}
