// Reference solution: review the thyroid history (TSH trend, free T4, dose changes), the active order, interacting
// medications and comorbidities; TSH is in range, so change nothing and document why (ATA 2014).
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { clinicalNote, effectiveTime } from '../../../graders/lib/index.ts';
import { doseMcg, isLevothyroxine } from './grader.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  await fhir.search('MedicationRequest', { patient, code: 'http://www.nlm.nih.gov/research/umls/rxnorm|10582', _sort: '-authoredon' });
  const tshs = (await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|3016-3,${FLOWSHEET}|TSH`, _sort: '-date', _count: 20 }))
    .filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
    .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)));
  await fhir.search('Observation', { patient, code: `http://loinc.org|3024-7,${FLOWSHEET}|FT4`, _sort: '-date', _count: 10 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|718-7,${FLOWSHEET}|HGB`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|2276-4,${FLOWSHEET}|FERR`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|4548-4,${FLOWSHEET}|A1C`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, category: 'vital-signs', _sort: '-date', _count: 20 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 10 });
  await fhir.search('CarePlan', { patient, status: 'active' });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 5 });

  const latest = tshs[0];
  const tsh = latest.valueQuantity!.value!;
  const order = active.find(isLevothyroxine)!;
  const mcg = doseMcg(order)!;
  const text = [
    'Endocrinology e-consult: hypothyroidism, request to increase levothyroxine for fatigue.',
    `Latest TSH ${tsh} mIU/L on ${effectiveTime(latest).slice(0, 10)}, within the reference range (0.4-4.0) on levothyroxine ${mcg} mcg daily.`,
    'No dose increase: TSH is at goal and fatigue is not an indication to raise the dose (risk of iatrogenic hyperthyroidism, atrial fibrillation, bone loss). Levothyroxine unchanged.',
    'Suggest evaluating other causes of fatigue (CBC, sleep, mood, medications); recheck TSH yearly or 6-8 weeks after any dose change.',
  ].join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Levothyroxine dose review', text }));
  await finish(JSON.stringify({ tsh, tshDate: effectiveTime(latest).slice(0, 10), increaseDose: false, currentDoseMcg: mcg }));
}
