// Reference solution: review the thyroid history (TSH trend, free T4, dose changes), the active order, interacting
// medications and comorbidities; then decide from the latest TSH (ATA 2014): in range - change nothing; suppressed -
// lower the dose by 25 mcg; clearly high - raise it by 25 mcg (stop the old order, start the new one). Document why.
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { clinicalNote, dailyDose, orderDoseIn } from '../../../graders/lib/index.ts';
import { conceptIs } from '../../../graders/lib/drug-classes.ts';
import { FLOWSHEET, FREE_T4, LEVOTHYROXINE, RXNORM, TSH, ZONES, type Decision } from './facts.ts';

const codes = (sets: { system: string; codes: string[] }[]) => sets.flatMap((s) => s.codes.map((c) => `${s.system}|${c}`)).join(',');
const when = (o: Observation) => o.effectiveDateTime ?? o.effectivePeriod?.start ?? o.issued ?? '';

function newest(results: Observation[]): Observation | undefined {
  return results.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
    .sort((a, b) => Date.parse(when(b)) - Date.parse(when(a)))[0];
}

const isLevothyroxine = (o: MedicationRequest): boolean => conceptIs(o.medicationCodeableConcept, 'levothyroxine');

/** mcg per day (graders/lib/dose: any mass unit, tablets of a known strength, or the sig text); once daily when the
 * order gives no frequency, as levothyroxine is taken. */
const mcgPerDay = (o: MedicationRequest): number | undefined => dailyDose(o, 'ug') ?? orderDoseIn(o, 'ug');

function decide(tsh: number): Decision | undefined {
  if (tsh < ZONES.suppressedBelow) return 'reduce';
  if (tsh >= ZONES.inRange.low && tsh <= ZONES.inRange.high) return 'no-change';
  return tsh >= ZONES.clearlyHighFrom ? 'increase' : undefined;
}

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  await fhir.search('MedicationRequest', { patient, code: `${RXNORM}|${LEVOTHYROXINE.ingredient}`, _sort: '-authoredon' });
  const latest = newest(await fhir.search<Observation>('Observation', { patient, code: codes(TSH), _sort: '-date', _count: 20 }))!;
  const ft4 = newest(await fhir.search<Observation>('Observation', { patient, code: codes(FREE_T4), _sort: '-date', _count: 10 }));
  await fhir.search('Observation', { patient, code: `http://loinc.org|718-7,${FLOWSHEET}|HGB`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, category: 'vital-signs', _sort: '-date', _count: 20 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 10 });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 5 });

  const tsh = latest.valueQuantity!.value!;
  const tshDate = when(latest).slice(0, 10);
  const order = active.find(isLevothyroxine)!;
  const mcg = mcgPerDay(order)!;
  const decision = decide(tsh)!;
  const newMcg = decision === 'increase' ? mcg + 25 : decision === 'reduce' ? mcg - 25 : mcg;
  const ft4Text = ft4 ? ` Free T4 ${ft4.valueQuantity!.value} ${ft4.valueQuantity!.unit ?? ''} on ${when(ft4).slice(0, 10)}.` : '';

  if (decision !== 'no-change') {
    const reason = `TSH ${tsh} mIU/L on ${tshDate}: levothyroxine ${decision === 'increase' ? 'increased' : 'reduced'} to ${newMcg} mcg daily`;
    await fhir.read('MedicationRequest', order.id!);
    await fhir.patch('MedicationRequest', order.id!, [
      { op: 'replace', path: '/status', value: 'stopped' },
      { op: 'add', path: '/statusReason', value: { text: reason } },
    ]);
    await fhir.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order',
      medicationCodeableConcept: { coding: [{ system: RXNORM, code: LEVOTHYROXINE.ingredient, display: 'levothyroxine' }], text: `levothyroxine sodium ${newMcg} mcg oral tablet` },
      subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
      priorPrescription: { reference: `MedicationRequest/${order.id}` }, note: [{ text: reason }],
      dosageInstruction: [{
        text: `${newMcg} mcg by mouth once daily on an empty stomach`,
        timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } },
        route: { coding: [{ system: 'http://snomed.info/sct', code: '26643006', display: 'Oral route' }] },
        doseAndRate: [{ doseQuantity: { value: newMcg, unit: 'mcg', system: 'http://unitsofmeasure.org', code: 'ug' } }],
      }],
    });
  }
  const plan = {
    'no-change': `TSH within the reference range (0.4-4.0) on levothyroxine ${mcg} mcg daily: no change. Fatigue is not an indication to raise the dose (over-replacement risks atrial fibrillation and bone loss); levothyroxine unchanged at ${mcg} mcg daily. Suggest evaluating other causes of fatigue (CBC, sleep, mood, medications); recheck TSH yearly.`,
    reduce: `TSH suppressed: over-replacement. Reduce levothyroxine from ${mcg} to ${newMcg} mcg daily; do not increase. Recheck TSH and free T4 in 6-8 weeks.`,
    increase: `TSH above the reference range: under-replaced. Increase levothyroxine from ${mcg} to ${newMcg} mcg daily after confirming adherence and timing apart from food and calcium/iron. Recheck TSH in 6-8 weeks.`,
  }[decision];
  const text = [
    'Endocrinology e-consult: hypothyroidism, request to increase levothyroxine for fatigue.',
    `Latest TSH ${tsh} mIU/L on ${tshDate}.${ft4Text}`,
    plan,
  ].join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Levothyroxine dose review', text }));
  await finish(JSON.stringify({ tsh, tshDate, increaseDose: decision === 'increase', currentDoseMcg: mcg, newDoseMcg: newMcg }));
}
