// Reference solution: confirm uncomplicated GERD (no Barrett's, no GI bleed, no anemia), stop the daily omeprazole
// with a reason, advise on-demand use, and file a consult note with the chart's key facts (AGA 2022).
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { clinicalNote, effectiveTime, isMedication } from '../../../graders/lib/index.ts';
import { OMEPRAZOLE } from './grader.ts';

const newest = (list: Observation[]) => list.filter((o) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error')
  .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)))[0];

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('Condition', { patient, code: 'http://snomed.info/sct|235595009' });
  await fhir.search('AllergyIntolerance', { patient });
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const hgb = newest(await fhir.search<Observation>('Observation', { patient, code: 'http://loinc.org|718-7', _sort: '-date' }));
  const mcv = newest(await fhir.search<Observation>('Observation', { patient, code: 'http://loinc.org|787-2', _sort: '-date' }));
  const egfr = newest(await fhir.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3', _sort: '-date' }));
  await fhir.search('Observation', { patient, code: 'http://loinc.org|2160-0', _sort: '-date', _count: 3 });
  await fhir.search('Procedure', { patient });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 5 });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 3 });
  await fhir.search('CarePlan', { patient, status: 'active' });

  const ppi = active.filter((o) => isMedication(o.medicationCodeableConcept, OMEPRAZOLE));
  const since = ppi.map((o) => (o.authoredOn ?? '').slice(0, 10)).sort()[0];
  for (const o of ppi) {
    await fhir.read('MedicationRequest', o.id!);
    await fhir.patch('MedicationRequest', o.id!, [
      { op: 'replace', path: '/status', value: 'stopped' },
      { op: 'add', path: '/statusReason', value: { text: 'PPI de-prescribing: uncomplicated GERD, asymptomatic; changed to on-demand use' } },
    ]);
  }
  const text = [
    'GASTROENTEROLOGY E-CONSULT NOTE',
    'Question: can long-term PPI be stopped?',
    `History: gastroesophageal reflux disease (GERD) on the problem list; on omeprazole 20 mg daily since ${since}. Asymptomatic, no alarm features reported; no Barrett esophagus, GI bleeding or severe esophagitis on record.`,
    `Labs: hemoglobin ${hgb.valueQuantity!.value} g/dL (${effectiveTime(hgb).slice(0, 10)})${mcv ? `, MCV ${mcv.valueQuantity!.value} fL` : ''}; eGFR ${egfr.valueQuantity!.value} mL/min/1.73m2 (${effectiveTime(egfr).slice(0, 10)}).`,
    'Assessment: uncomplicated GERD with sustained symptom control - candidate for PPI de-prescribing (AGA 2022).',
    'Plan: daily omeprazole stopped; step down to on-demand omeprazole 20 mg (over the counter) as needed. Warn about transient rebound heartburn in the first 2-4 weeks (antacids). If symptoms recur persistently, resume the lowest effective daily dose; alarm symptoms (dysphagia, bleeding, weight loss) warrant EGD.',
  ].join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'GI e-consult: PPI de-prescribing', title: 'GI e-consult', text }));
  await finish('Stopped daily omeprazole (uncomplicated GERD, asymptomatic) advised on-demand omeprazole 20 mg as needed; consult note filed.');
}
