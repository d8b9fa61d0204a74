// Reference solution: gather age, the latest weight and creatinine (converted to mg/dL), and the apixaban order;
// count the label's dose-reduction criteria (2 of: age >= 80, weight <= 60 kg, creatinine >= 1.5 mg/dL). A dose
// that matches is left alone; one that does not is stopped and replaced by an order at the label dose. Either way a
// dose-review note and the JSON answer.
import type { MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { clinicalNote, convert, orderDoseIn, orderProduct, strengthIn } from '../../../graders/lib/index.ts';
import { conceptIs } from '../../../graders/lib/drug-classes.ts';
import { convertValue } from '../../../graders/lib/index.ts';
import { BODY_WEIGHT, CREATININE, LABEL, RXNORM, SNOMED } from './facts.ts';

const codes = (sets: { system: string; codes: string[] }[]) => sets.flatMap((s) => s.codes.map((c) => `${s.system}|${c}`)).join(',');

function latest(results: Observation[]): Observation | undefined {
  return results.filter((o) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error')
    .sort((a, b) => Date.parse(b.effectiveDateTime ?? b.issued ?? '') - Date.parse(a.effectiveDateTime ?? a.issued ?? ''))[0];
}

/** mg per administration (a mass dose, or a count of tablets times the product's strength, by graders/lib/dose);
 * with no dose written, the product's strength. */
const mgPerDose = (order: MedicationRequest): number | undefined => orderDoseIn(order, 'mg') ?? strengthIn(orderProduct(order), 'mg');

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  const person = await fhir.read<Patient>('Patient', patient);
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const creatinine = latest(await fhir.search<Observation>('Observation', { patient, code: codes(CREATININE), _sort: '-date', _count: 10 }));
  const weight = latest(await fhir.search<Observation>('Observation', { patient, code: codes(BODY_WEIGHT), _sort: '-date', _count: 10 }));
  await fhir.search('Observation', { patient, code: 'http://loinc.org|33914-3', _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|718-7', _sort: '-date', _count: 3 });

  const born = new Date(`${person.birthDate}T00:00:00Z`);
  const at = new Date(now);
  const age = at.getUTCFullYear() - born.getUTCFullYear() - (at < new Date(Date.UTC(at.getUTCFullYear(), born.getUTCMonth(), born.getUTCDate())) ? 1 : 0);
  const wq = weight!.valueQuantity!;
  const kg = convert(wq.value!, wq.code ?? wq.unit ?? 'kg', 'kg') ?? wq.value!;
  const cq = creatinine!.valueQuantity!;
  const crMgDl = convertValue(cq.value!, cq.code ?? cq.unit ?? 'mg/dL', 'mg/dL', ['2160-0']) ?? cq.value!;
  const met: string[] = [];
  if (age >= LABEL.ageAtLeast) met.push(`age ${age} >= 80`);
  if (kg <= LABEL.weightAtMostKg) met.push(`weight ${kg} kg <= 60`);
  if (crMgDl >= LABEL.creatinineAtLeastMgDl) met.push(`creatinine ${crMgDl.toFixed(2)} mg/dL >= 1.5`);
  const labelMg = met.length >= LABEL.reduceWhenAtLeast ? LABEL.reducedMg : LABEL.standardMg;

  const order = active.find((o) => conceptIs(o.medicationCodeableConcept, 'apixaban'))!;
  const currentMg = mgPerDose(order)!;
  const appropriate = currentMg === labelMg;
  let action = `Current apixaban ${currentMg} mg twice daily matches the label: no change.`;
  if (!appropriate) {
    await fhir.update<MedicationRequest>({ ...order, id: order.id!, status: 'stopped', statusReason: { text: `Dose changed to ${labelMg} mg twice daily per label criteria` } });
    const scd = labelMg === 5 ? { code: '1364445', display: 'apixaban 5 MG Oral Tablet' } : { code: '1364435', display: 'apixaban 2.5 MG Oral Tablet' };
    await fhir.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order',
      medicationCodeableConcept: { coding: [{ system: RXNORM, ...scd }], text: scd.display },
      subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
      reasonCode: [{ coding: [{ system: SNOMED, code: '49436004', display: 'Atrial fibrillation' }] }],
      dosageInstruction: [{
        text: `Take 1 tablet (${labelMg} mg) by mouth twice daily`,
        timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } },
        route: { coding: [{ system: SNOMED, code: '26643006', display: 'Oral route' }] },
        doseAndRate: [{ doseQuantity: { value: labelMg, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }],
      }],
    });
    action = `Current apixaban ${currentMg} mg twice daily does not match the label (${labelMg < currentMg ? 'overdosed' : 'underdosed'}): changed to ${labelMg} mg twice daily.`;
  }
  const cr = Math.round(crMgDl * 100) / 100;
  const text = [
    'Pharmacy consult: apixaban dose review (nonvalvular atrial fibrillation).',
    `Age ${age} years; weight ${kg} kg; serum creatinine ${cr} mg/dL (reported ${cq.value} ${cq.unit ?? cq.code}).`,
    `Label dose-reduction criteria met: ${met.length} of 3 (${met.join('; ') || 'none'}); 2.5 mg twice daily only when at least 2 are met.`,
    action,
    'Recheck creatinine and weight at least yearly.',
  ].join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Apixaban dose review', text }));
  await finish(JSON.stringify({ criteriaMet: met.length, doseAppropriate: appropriate, recommendedDoseMg: labelMg, ageYears: age, weightKg: kg, creatinineMgDl: cr }));
}
