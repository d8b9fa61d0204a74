// Reference solution: review problems, medications, kidney labs with their trend, glucose control and vitals; decide
// by KDIGO 2024 chapter 3.7 whether to start, continue or not start an SGLT2 inhibitor; keep the ACE inhibitor/ARB;
// order a UACR in 3 months; write the consult note. The thresholds come from facts.ts; the reading of the chart and
// the decision are this file's own code (the grader decides independently).
import type { Condition, MedicationRequest, Observation, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { clinicalNote, effectiveTime, plainDrugName } from '../../../graders/lib/index.ts';
import { classesOfIngredients, ingredientNamesOf } from '../../../graders/lib/drug-classes.ts';
import {
  ALBUMINURIA_INDICATION_MG_G, CKD_PROBLEMS, FLOWSHEET, HEART_FAILURE, ICD10CM, LOINC, RAAS_CLASSES, SGLT2_CLASS, SNOMED, START_MIN_EGFR, SUSTAINED_DAYS,
  TYPE_1_DIABETES, TYPE_2_DIABETES,
} from './facts.ts';

const valued = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)));
const day = (o: Observation) => effectiveTime(o).slice(0, 10);
/** The generic name of an order's ingredient in one of the classes (any code, brand or name: graders/lib). */
const memberOf = (o: MedicationRequest, classes: string[]): string | undefined =>
  ingredientNamesOf(o.medicationCodeableConcept).find((n) => classesOfIngredients([n]).some((c) => classes.includes(c)));
const has = (conditions: Condition[], set: { snomed: string[]; icd10Prefixes: string[] }) => conditions.some((c) => (c.code?.coding ?? []).some((x) =>
  (x.system === SNOMED && set.snomed.includes(x.code ?? '')) || (x.system === ICD10CM && set.icd10Prefixes.some((p) => (x.code ?? '').startsWith(p)))));

export type Sglt2Decision = { kind: 'start'; drug: string } | { kind: 'continue'; drug: string } | { kind: 'not-start'; reason: string };

export interface CkdNoteFacts {
  ckd: string;
  egfr: Observation[];
  uacr: Observation;
  potassium: Observation;
  /** The ACE inhibitor/ARB as it is ordered, e.g. "lisinopril 10 mg once daily". */
  raas: string;
  uacrDue: string;
  /** Default: empagliflozin 10 mg started. */
  decision?: Sglt2Decision;
}

export function ckdSglt2Note(f: CkdNoteFacts): string {
  const [e, previous] = f.egfr;
  const decision = f.decision ?? { kind: 'start', drug: 'empagliflozin 10 mg once daily' };
  const plan = decision.kind === 'start'
    ? ['Assessment: CKD with albuminuria on RAAS blockade, above the eGFR threshold (20) for starting an SGLT2 inhibitor, which lowers the risk of kidney failure and cardiovascular events (KDIGO 2024).',
      `Plan: started ${decision.drug}. Continue the ACE inhibitor or ARB at the maximally tolerated dose.`,
      'Sick-day rules reviewed (hold during acute illness or poor intake); expect an initial eGFR dip.']
    : decision.kind === 'continue'
      ? ['Assessment: already on an SGLT2 inhibitor; once started it is continued even if the eGFR falls below 20 (KDIGO 2024 practice point 3.7.1).',
        `Plan: continue ${decision.drug} as the only SGLT2 inhibitor. Continue the ACE inhibitor or ARB at the maximally tolerated dose.`]
      : [`Assessment: ${decision.reason}.`, 'Plan: do not start an SGLT2 inhibitor. Continue the ACE inhibitor or ARB at the maximally tolerated dose.'];
  return [
    'Nephrology e-consult: SGLT2 inhibitor.',
    `Problem: ${f.ckd}.`,
    `Labs: eGFR ${e.valueQuantity!.value} mL/min/1.73m2 on ${day(e)}${previous ? ` (previous eGFR ${previous.valueQuantity!.value} on ${day(previous)})` : ''}; urine albumin/creatinine ratio ${f.uacr.valueQuantity!.value} mg/g on ${day(f.uacr)}; potassium ${f.potassium.valueQuantity!.value} mmol/L on ${day(f.potassium)}.`,
    `Medications: on ${f.raas}.`,
    ...plan,
    `Urine albumin/creatinine ratio ordered for ${f.uacrDue}.`,
    'Recheck potassium and creatinine at that visit.',
  ].join('\n');
}

/** KDIGO 2024 chapter 3.7, applied to what this solution read. */
function decide(conditions: Condition[], active: MedicationRequest[], egfr: Observation[], uacr: Observation | undefined): Sglt2Decision {
  const on = active.map((o) => ({ o, name: memberOf(o, [SGLT2_CLASS]) })).find((x) => x.name);
  if (on) return { kind: 'continue', drug: plainDrugName(on.o.medicationCodeableConcept?.text ?? on.name!) };
  if (has(conditions, TYPE_1_DIABETES)) return { kind: 'not-start', reason: 'type 1 diabetes: an SGLT2 inhibitor is not recommended (risk of diabetic ketoacidosis; not studied in the kidney trials)' };
  const latest = egfr[0]!;
  const value = latest.valueQuantity!.value!;
  const window = egfr.filter((o) => Date.parse(effectiveTime(latest)) - Date.parse(effectiveTime(o)) <= SUSTAINED_DAYS * 86_400_000);
  if (window.some((o) => (o.valueQuantity!.value! >= START_MIN_EGFR) !== (value >= START_MIN_EGFR))) throw new Error('eGFR crosses 20 within 90 days: not a variant');
  if (value < START_MIN_EGFR) return { kind: 'not-start', reason: `the eGFR has stayed below the KDIGO 2024 initiation threshold for more than ${Math.floor(SUSTAINED_DAYS / 30)} months` };
  const indicated = has(conditions, TYPE_2_DIABETES) || has(conditions, HEART_FAILURE) || (uacr?.valueQuantity?.value ?? 0) >= ALBUMINURIA_INDICATION_MG_G;
  if (!indicated) throw new Error('KDIGO 2B zone: not a variant');
  return { kind: 'start', drug: 'empagliflozin 10 mg once daily' };
}

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  const requester = task.requester.reference;
  await fhir.read('Patient', patient);
  const conditions = await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const meds = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const egfr = valued(await fhir.search<Observation>('Observation', { patient, code: `${LOINC}|33914-3,${LOINC}|62238-1,${FLOWSHEET}|EGFR`, _sort: '-date', _count: 20 }));
  const uacr = valued(await fhir.search<Observation>('Observation', { patient, code: `${LOINC}|14959-1,${FLOWSHEET}|UACR`, _sort: '-date', _count: 10 }));
  const k = valued(await fhir.search<Observation>('Observation', { patient, code: `${LOINC}|2823-3,${FLOWSHEET}|K`, _sort: '-date', _count: 10 }));
  await fhir.search('Observation', { patient, code: `${LOINC}|2160-0,${FLOWSHEET}|CREAT`, _sort: '-date', _count: 10 });
  await fhir.search('Observation', { patient, code: `${LOINC}|4548-4,${FLOWSHEET}|A1C`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, category: 'vital-signs', _sort: '-date', _count: 20 });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 5 });

  const ckdCodes = CKD_PROBLEMS.flatMap((s) => s.codes);
  const ckd = conditions.find((c) => (c.code?.coding ?? []).some((x) => x.system === SNOMED && ckdCodes.includes(x.code ?? '')));
  const raas = meds.find((o) => memberOf(o, RAAS_CLASSES))!;
  const decision = decide(conditions, meds, egfr, uacr[0]);
  if (decision.kind === 'start') {
    await fhir.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order',
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1545653', display: 'empagliflozin' }], text: 'empagliflozin 10 MG Oral Tablet' },
      subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: requester },
      reasonCode: [{ coding: [{ system: SNOMED, code: ckd?.code?.coding?.find((c) => c.system === SNOMED)?.code ?? '709044004' }], text: 'CKD: kidney and cardiovascular protection (KDIGO 2024)' }],
      dosageInstruction: [{
        text: '10 mg by mouth once daily', timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } },
        route: { coding: [{ system: SNOMED, code: '26643006', display: 'Oral route' }] },
        doseAndRate: [{ doseQuantity: { value: 10, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }],
      }],
    });
  }
  const due = new Date(Date.parse(now) + 90 * 86_400_000).toISOString();
  await fhir.create<ServiceRequest>({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'routine',
    category: [{ coding: [{ system: SNOMED, code: '108252007', display: 'Laboratory procedure' }] }],
    code: { coding: [{ system: LOINC, code: '14959-1', display: 'Microalbumin/Creatinine [Mass ratio] in Urine' }], text: 'Urine albumin/creatinine ratio' },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, occurrenceDateTime: due, requester: { reference: requester },
    ...(ckd ? { reasonReference: [{ reference: `Condition/${ckd.id}` }] } : {}),
  });
  const raasText = `${plainDrugName(raas.medicationCodeableConcept?.text ?? raas.medicationCodeableConcept?.coding?.[0]?.display ?? 'ACE inhibitor/ARB')} once daily`;
  const text = ckdSglt2Note({ ckd: ckd?.code?.text ?? 'chronic kidney disease', egfr, uacr: uacr[0]!, potassium: k[0]!, raas: raasText, uacrDue: due.slice(0, 10), decision });
  await fhir.create(clinicalNote({ patient, author: requester, date: now, description: 'Nephrology e-consult: SGLT2 inhibitor', title: 'Nephrology e-consult', text }));
  const summary = decision.kind === 'start' ? `Yes: started ${decision.drug} (eGFR >= 20, on RAAS blockade)`
    : decision.kind === 'continue' ? `Yes, and already on ${decision.drug}: continue it` : `No: do not start an SGLT2 inhibitor (${decision.reason})`;
  await finish(`${summary}; UACR ordered; consult note filed.`);
}
