// Reference solution: gather age, weight, creatinine (in mg/dL), kidney function and the apixaban order; count the
// label's dose-reduction criteria; the dose matches, so change nothing and document the review.
import type { SolutionContext } from '../../../harness/types.ts';
import { clinicalNote } from '../../../graders/lib/index.ts';
import { dosingFacts } from './grader.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  await fhir.search('MedicationRequest', { patient, status: 'active' });
  await fhir.search('MedicationRequest', { patient, code: 'http://www.nlm.nih.gov/research/umls/rxnorm|1364445,http://www.nlm.nih.gov/research/umls/rxnorm|1364435' });
  await fhir.search('Observation', { patient, code: `http://loinc.org|2160-0,${FLOWSHEET}|CREAT`, _sort: '-date', _count: 10 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|33914-3,${FLOWSHEET}|EGFR`, _sort: '-date', _count: 10 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|29463-7', _sort: '-date', _count: 10 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|718-7,${FLOWSHEET}|HGB`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|777-3,${FLOWSHEET}|PLT`, _sort: '-date', _count: 5 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 10 });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 5 });
  // Same rules as a pharmacist applies (the function reads Patient, weight, creatinine and orders again).
  const f = await dosingFacts(fhir, patient, now);
  const cr = Math.round(f.creatinineMgDl! * 100) / 100;
  const wt = f.weightKg!;
  const q = f.creatinine!.valueQuantity!;
  const text = [
    'Pharmacy consult: apixaban dose review (nonvalvular atrial fibrillation).',
    `Age ${f.age} years; weight ${wt} kg; serum creatinine ${cr} mg/dL (reported ${q.value} ${q.unit ?? q.code}).`,
    `Label dose-reduction criteria met: ${f.criteria.length} of 3 (${f.criteria.join('; ') || 'none'}). 2.5 mg twice daily only when at least 2 are met.`,
    `Current apixaban ${f.currentMg} mg twice daily is appropriate; no change made. Recheck creatinine and weight at least yearly.`,
  ].join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Apixaban dose review', text }));
  await finish(JSON.stringify({ criteriaMet: f.criteria.length, doseAppropriate: true, ageYears: f.age, weightKg: wt, creatinineMgDl: cr, currentDoseMg: f.currentMg }));
}
