// Reference solution: read demographics, the problem list, the medication orders, weight and creatinine; score
// CHA2DS2-VASc; decide per the 2023 ACC/AHA/ACCP/HRS guideline (anticoagulate at >= 2 men / >= 3 women). Already
// anticoagulated: keep the current order. Indicated and not anticoagulated: start apixaban at its label dose. Not
// indicated: order nothing. Either way, a short note with the score and the recommendation.
import type { Condition, MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { clinicalNote } from '../../../graders/lib/index.ts';
import { conceptIs, convertValue } from '../../../graders/lib/index.ts';
import {
  AGE_POINTS, APIXABAN_LABEL, BODY_WEIGHT, CREATININE, FEMALE_POINTS, ICD10CM, INDICATED_AT, ORAL_ANTICOAGULANTS, RXNORM,
  SCORED_CONDITIONS, SNOMED,
} from './facts.ts';

const codeParam = (sets: { system: string; codes: string[] }[]) => sets.flatMap((s) => s.codes.map((c) => `${s.system}|${c}`)).join(',');

/** Newest result with a value (the search sorts by date; ties and offsets are settled by parsing the instant). */
function newest(results: Observation[]): Observation | undefined {
  return results.filter((o) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error')
    .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0];
}

function yearsOld(birthDate: string, now: string): number {
  const born = new Date(`${birthDate}T00:00:00Z`);
  const at = new Date(now);
  let years = at.getUTCFullYear() - born.getUTCFullYear();
  const birthdayThisYear = Date.UTC(at.getUTCFullYear(), born.getUTCMonth(), born.getUTCDate());
  if (at.getTime() < birthdayThisYear) years -= 1;
  return years;
}

function isOralAnticoagulant(order: MedicationRequest): string | undefined {
  // Any RxNorm code, brand or name of the drug (graders/lib/drug-classes.ts).
  return ORAL_ANTICOAGULANTS.find((d) => conceptIs(order.medicationCodeableConcept, d.name))?.name;
}

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  const person = await fhir.read<Patient>('Patient', patient);
  const problems = await fhir.search<Condition>('Condition', { patient, _count: 200 });
  await fhir.search('AllergyIntolerance', { patient });
  const orders = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const weight = newest(await fhir.search<Observation>('Observation', { patient, code: codeParam(BODY_WEIGHT), _sort: '-date', _count: 10 }));
  const creatinine = newest(await fhir.search<Observation>('Observation', { patient, code: codeParam(CREATININE), _sort: '-date', _count: 10 }));
  await fhir.search('Observation', { patient, code: 'http://loinc.org|718-7', _sort: '-date', _count: 3 });

  // CHA2DS2-VASc, item by item.
  const age = yearsOld(person.birthDate!, now);
  const female = person.gender === 'female';
  const counted: string[] = [];
  let score = 0;
  for (const band of AGE_POINTS) {
    if (age >= band.atLeast) { score += band.points; counted.push(`age ${age} (+${band.points})`); break; }
  }
  if (female) { score += FEMALE_POINTS; counted.push(`female sex (+${FEMALE_POINTS})`); }
  const live = problems.filter((c) => !['entered-in-error', 'refuted'].includes(c.verificationStatus?.coding?.[0]?.code ?? ''));
  for (const item of SCORED_CONDITIONS) {
    const present = live.some((c) => (c.code?.coding ?? []).some((k) =>
      (k.system === SNOMED && item.snomed.includes(k.code ?? '')) || (k.system === ICD10CM && item.icd10Prefixes.some((prefix) => (k.code ?? '').startsWith(prefix)))));
    if (present) { score += item.points; counted.push(`${item.item} (+${item.points})`); }
  }
  const anticoagulate = score >= (female ? INDICATED_AT.female : INDICATED_AT.male);

  const current = orders.filter((o) => o.status === 'active').map((o) => ({ order: o, drug: isOralAnticoagulant(o) })).filter((x) => x.drug);
  let plan: string;
  let anticoagulant = 'none';
  if (current.length > 0) {
    const o = current[0].order;
    anticoagulant = `${o.medicationCodeableConcept?.text ?? current[0].drug} (${o.dosageInstruction?.[0]?.text ?? 'as prescribed'})`;
    plan = `Already anticoagulated with ${anticoagulant}: continue it; no additional antithrombotic (a second agent would add bleeding without benefit).`;
  } else if (anticoagulate) {
    // Apixaban per the label: 2.5 mg twice daily when two of age >= 80, weight <= 60 kg, creatinine >= 1.5 mg/dL.
    const kg = weight?.valueQuantity?.value;
    const cr = creatinine?.valueQuantity?.value;
    const crMgDl = cr === undefined ? undefined : convertValue(cr, creatinine!.valueQuantity!.code ?? creatinine!.valueQuantity!.unit ?? 'mg/dL', 'mg/dL', ['2160-0']) ?? cr;
    let criteria = 0;
    if (age >= APIXABAN_LABEL.ageAtLeast) criteria++;
    if (kg !== undefined && kg <= APIXABAN_LABEL.weightAtMostKg) criteria++;
    if (crMgDl !== undefined && crMgDl >= APIXABAN_LABEL.creatinineAtLeastMgDl) criteria++;
    const mg = criteria >= APIXABAN_LABEL.reduceWhenAtLeast ? APIXABAN_LABEL.reducedMg : APIXABAN_LABEL.standardMg;
    const scd = mg === 5 ? { code: '1364445', display: 'apixaban 5 MG Oral Tablet' } : { code: '1364435', display: 'apixaban 2.5 MG Oral Tablet' };
    await fhir.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order',
      medicationCodeableConcept: { coding: [{ system: RXNORM, ...scd }], text: scd.display },
      subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
      reasonCode: [{ coding: [{ system: SNOMED, code: '49436004', display: 'Atrial fibrillation' }], text: `Stroke prevention, CHA2DS2-VASc ${score}` }],
      dosageInstruction: [{
        text: `Take 1 tablet (${mg} mg) by mouth twice daily`,
        timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } },
        route: { coding: [{ system: SNOMED, code: '26643006', display: 'Oral route' }] },
        doseAndRate: [{ doseQuantity: { value: mg, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }],
      }],
      dispenseRequest: { quantity: { value: 60, unit: 'tablet' }, numberOfRepeatsAllowed: 5 },
    });
    anticoagulant = `apixaban ${mg} mg twice daily`;
    plan = `Anticoagulation indicated: started ${anticoagulant} (${criteria} of 3 label dose-reduction criteria). No aspirin added.`;
  } else {
    plan = 'Annual stroke risk is low: anticoagulation is not indicated, and aspirin is not a substitute. Reassess the score yearly and when new risk factors appear.';
  }
  const text = [
    'Cardiology e-consult: atrial fibrillation, stroke prevention.',
    `CHA2DS2-VASc score ${score} (${counted.join(', ') || 'no risk factors'}).`,
    plan,
  ].join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'AF stroke prevention review', text }));
  await finish(JSON.stringify({ chadsvasc: score, anticoagulate, anticoagulant }));
}
